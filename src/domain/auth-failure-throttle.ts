import { Clock } from './ports/clock';

export interface AuthFailureThrottleOptions {
  clock: Clock;
  /** Failed signatures per api key within the window before further attempts with it are refused. */
  keyLimit: number;
  /** Failed signatures per client address within the window before further attempts from it are refused. */
  addressLimit: number;
  windowS: number;
  /** Most keys (and, separately, addresses) remembered; the one that failed least recently is forgotten first. */
  maxTracked?: number;
}

const DEFAULT_MAX_TRACKED = 50_000;
/** Registry keys are at most 128 characters; longer ones cannot exist, so their tail carries nothing. */
const MAX_KEY_LENGTH = 128;

/**
 * The times of a subject's most recent failures, at most `limit` of them, oldest first.
 * Subjects live in a Map in order of their last failure, so the bound evicts in O(1).
 */
class SlidingFailureLog {
  private readonly logs = new Map<string, number[]>();

  constructor(private readonly limit: number, private readonly windowMs: number, private readonly maxTracked: number) {}

  /** Milliseconds until the subject may try again; 0 when it may try now. */
  waitMs(id: string, nowMs: number): number {
    const log = this.logs.get(id);
    if (!log || log.length < this.limit) return 0;
    return Math.max(0, log[0] + this.windowMs - nowMs);
  }

  record(id: string, nowMs: number): void {
    let log = this.logs.get(id);
    if (log) {
      this.logs.delete(id); // re-inserted below: the most recent failure goes last
    } else {
      log = [];
      if (this.logs.size >= this.maxTracked) this.logs.delete(this.logs.keys().next().value as string);
    }
    const cutoff = nowMs - this.windowMs;
    let expired = 0;
    while (expired < log.length && log[expired] <= cutoff) expired++;
    if (expired > 0) log.splice(0, expired);
    log.push(nowMs);
    if (log.length > this.limit) log.shift();
    this.logs.set(id, log);
  }

  size(): number {
    return this.logs.size;
  }
}

/**
 * Failed signatures, counted per api key and per client address over a sliding window.
 * A key or address over its limit is refused before any signature is computed, so a guesser
 * gets at most `limit` tries per window and each refused try costs two map lookups.
 * Only failures count: a partner's successes neither count nor reset anything, and one key's
 * failures never block another key unless the address they come from is itself over its limit.
 * Unknown keys count exactly like known ones, so a 429 never tells whether a key exists.
 */
export class AuthFailureThrottle {
  private readonly byKey: SlidingFailureLog;
  private readonly byAddress: SlidingFailureLog;

  constructor(private readonly opts: AuthFailureThrottleOptions) {
    const windowMs = opts.windowS * 1000;
    const max = opts.maxTracked ?? DEFAULT_MAX_TRACKED;
    this.byKey = new SlidingFailureLog(opts.keyLimit, windowMs, max);
    this.byAddress = new SlidingFailureLog(opts.addressLimit, windowMs, max);
  }

  /** Whole seconds (at least 1) until this key and address may try again; undefined when they may now. */
  retryAfterS(apiKey: string | undefined, address: string | undefined): number | undefined {
    const now = this.opts.clock.nowMs();
    const wait = Math.max(
      apiKey ? this.byKey.waitMs(keyOf(apiKey), now) : 0,
      address ? this.byAddress.waitMs(addressKey(address), now) : 0,
    );
    return wait > 0 ? Math.max(1, Math.ceil(wait / 1000)) : undefined;
  }

  /** Counts one failed signature against the key and the address it came from. */
  recordFailure(apiKey: string | undefined, address: string | undefined): void {
    const now = this.opts.clock.nowMs();
    if (apiKey) this.byKey.record(keyOf(apiKey), now);
    if (address) this.byAddress.record(addressKey(address), now);
  }

  /** How many keys and addresses are remembered (bounded by maxTracked each). */
  tracked(): { keys: number; addresses: number } {
    return { keys: this.byKey.size(), addresses: this.byAddress.size() };
  }
}

function keyOf(apiKey: string): string {
  return apiKey.length > MAX_KEY_LENGTH ? apiKey.slice(0, MAX_KEY_LENGTH) : apiKey;
}

/**
 * The unit an address is counted as: an IPv4 address as is, an IPv6 address by its /64,
 * since one host usually holds a whole /64 and could otherwise rotate through it.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':')) return address.slice(0, 64);
  const groups = expandIpv6(address.split('%')[0]);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : address.slice(0, 64);
}

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
function expandIpv6(address: string): string[] | undefined {
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  const last = tail.length > 0 ? tail : head;
  if (last.length > 0 && last[last.length - 1].includes('.')) {
    // An embedded IPv4 tail (::a.b.c.d) stands for two groups.
    const octets = last.pop()!.split('.').map(Number);
    if (octets.length !== 4 || octets.some((o) => !Number.isInteger(o) || o < 0 || o > 255)) return undefined;
    last.push(((octets[0] << 8) | octets[1]).toString(16), ((octets[2] << 8) | octets[3]).toString(16));
  }
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...new Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (!groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  return groups.map((g) => parseInt(g, 16).toString(16));
}
