/** Retry timing shared by both delivery adapters (CONTRACT §8). */
export interface RetrySettings {
  /** WEBHOOK_RETRY_WINDOW_S in ms: after this long since acceptance, an event is dead-lettered. */
  windowMs: number;
  /** WEBHOOK_BACKOFF_BASE_MS: the first retry's delay (before jitter). */
  baseMs: number;
  /** WEBHOOK_BACKOFF_MAX_MS: no single wait is longer. */
  maxMs: number;
}

/**
 * Exponential backoff with "equal jitter": half the doubled delay fixed, half random, so
 * retries of one burst spread out yet still grow. Never past the deadline.
 */
export function nextDelayMs(attemptsMade: number, s: RetrySettings, remainingMs: number, random: () => number = Math.random): number {
  const exp = Math.min(s.maxMs, s.baseMs * 2 ** Math.min(30, Math.max(0, attemptsMade - 1)));
  const jittered = exp / 2 + random() * (exp / 2);
  return Math.max(0, Math.min(Math.round(jittered), remainingMs));
}

/** Per-sink-origin concurrency, per instance: one slow partner holds at most `limit` slots. */
export class SinkSlots {
  private readonly inUse = new Map<string, number>();

  constructor(private readonly limit: number) {}

  static origin(sink: string): string {
    try { return new URL(sink).origin; } catch { return sink; }
  }

  tryTake(origin: string): boolean {
    const n = this.inUse.get(origin) ?? 0;
    if (n >= this.limit) return false;
    this.inUse.set(origin, n + 1);
    return true;
  }

  release(origin: string): void {
    const n = (this.inUse.get(origin) ?? 1) - 1;
    if (n <= 0) this.inUse.delete(origin);
    else this.inUse.set(origin, n);
  }
}
