import { Clock } from '../../kernel/clock';
import { QuotaCounter, RateDecision } from '../ports/state-store';

interface Count {
  uses: number;
  windowEndMs: number;
}

/**
 * Window counts in this process, at most maxEntries keys: past it, ended windows go first,
 * then the oldest keys (Map keeps insertion order). Forgetting a key early can only let a
 * number be asked again, never refuse one wrongly; the bound keeps a flood of numbers from
 * growing the heap.
 */
export class MemoryQuotaCounter implements QuotaCounter {
  private readonly counts = new Map<string, Count>();

  constructor(private readonly clock: Clock, private readonly maxEntries: number) {}

  async take(key: string, limit: number, windowEndMs: number): Promise<RateDecision> {
    const now = this.clock.nowMs();
    let c = this.counts.get(key);
    if (c !== undefined && c.windowEndMs <= now) {
      this.counts.delete(key);
      c = undefined;
    }
    if (c !== undefined && c.uses >= limit) return { allowed: false, retryAfterMs: Math.max(0, c.windowEndMs - now) };
    if (c === undefined) {
      this.makeRoom(now);
      c = { uses: 0, windowEndMs };
      this.counts.set(key, c);
    }
    c.uses++;
    return { allowed: true, retryAfterMs: 0 };
  }

  private makeRoom(now: number): void {
    if (this.counts.size < this.maxEntries) return;
    for (const [key, c] of this.counts) if (c.windowEndMs <= now) this.counts.delete(key);
    for (const key of this.counts.keys()) {
      if (this.counts.size < this.maxEntries) break;
      this.counts.delete(key);
    }
  }
}
