import { isPlainObject } from '../kernel/plain-object';

/** What a simulated system does wrong: delay every call, fail a share of calls, or be gone. */
export interface Fault {
  /** Added before every answer (success or injected error); integer 0..600000. */
  latencyMs: number;
  /** Share of calls answered 503, 0..1, applied deterministically (see FaultState). */
  errorRate: number;
  /** The call is counted, then the socket is destroyed without a response, like a crashed system. */
  down: boolean;
}

export const SYSTEMS = ['hlr', 'sim', 'crm'] as const;
export type SystemName = (typeof SYSTEMS)[number];

export const NO_FAULT: Readonly<Fault> = Object.freeze({ latencyMs: 0, errorRate: 0, down: false });
const MAX_LATENCY_MS = 600_000;
// Guards against 0.1 + 0.1 + ... landing a hair under a whole number of failures.
const EPSILON = 1e-9;

export function isSystemName(s: string): s is SystemName {
  return (SYSTEMS as readonly string[]).includes(s);
}

/** Validates a (partial) fault from an admin body; throws an Error naming the bad field. */
export function parseFaultPatch(raw: unknown): Partial<Fault> {
  if (!isPlainObject(raw)) {
    throw new Error('fault must be a JSON object with any of latencyMs, errorRate, down');
  }
  const patch: Partial<Fault> = {};
  for (const [key, value] of Object.entries(raw)) {
    switch (key) {
      case 'latencyMs':
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_LATENCY_MS) {
          throw new Error(`latencyMs must be an integer 0..${MAX_LATENCY_MS}`);
        }
        patch.latencyMs = value;
        break;
      case 'errorRate':
        if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
          throw new Error('errorRate must be a number 0..1');
        }
        patch.errorRate = value;
        break;
      case 'down':
        if (typeof value !== 'boolean') throw new Error('down must be true or false');
        patch.down = value;
        break;
      default:
        throw new Error(`${key} is not a fault field (latencyMs, errorRate, down)`);
    }
  }
  return patch;
}

/**
 * One system's fault. The error rate is an exact schedule, not a coin toss, so tests can
 * count on it: call n fails when floor(n * rate) steps up, i.e. with 0.5 every second call
 * fails and with 0.1 every tenth. Setting errorRate restarts the schedule.
 */
export class FaultState {
  private fault: Fault = { ...NO_FAULT };
  private callsSinceRateSet = 0;

  get(): Fault {
    return { ...this.fault };
  }

  apply(patch: Partial<Fault>): Fault {
    const valid = parseFaultPatch(patch);
    if (valid.errorRate !== undefined) this.callsSinceRateSet = 0;
    this.fault = { ...this.fault, ...valid };
    return this.get();
  }

  reset(): void {
    this.fault = { ...NO_FAULT };
    this.callsSinceRateSet = 0;
  }

  get latencyMs(): number {
    return this.fault.latencyMs;
  }

  get down(): boolean {
    return this.fault.down;
  }

  /** Advances the schedule by one call and says whether that call gets the injected 503. */
  nextCallFails(): boolean {
    const rate = this.fault.errorRate;
    if (rate === 0) return false;
    const n = ++this.callsSinceRateSet;
    return Math.floor(n * rate + EPSILON) > Math.floor((n - 1) * rate + EPSILON);
  }
}
