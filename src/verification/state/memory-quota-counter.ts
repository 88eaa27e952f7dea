import { UpstreamUnavailableError } from '../../errors/domain-errors';
import { Clock } from '../../kernel/clock';
import { QuotaCounter, RateDecision } from '../ports/state-store';

interface Count {
  uses: number;
  windowEndMs: number;
}

/**
 * Window counts in this process, at most maxEntries keys. A count is never forgotten before its
 * window ends: forgetting one would let a caller ask about a number again (100 requests about
 * other numbers used to evict a counter and buy 10 more guesses, issue 29). Past the bound, once
 * ended windows are cleared, a new key is refused with 503 (the service cannot count it, so it
 * does not answer it) until the earliest window ends; keys already counted are still answered.
 * The bound keeps a flood of numbers from growing the heap.
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

  async giveBack(key: string): Promise<void> {
    const c = this.counts.get(key);
    if (c !== undefined && c.uses > 0) c.uses--;
  }

  /** Clears ended windows; when every key left is still counting, refuses the new one. */
  private makeRoom(now: number): void {
    if (this.counts.size < this.maxEntries) return;
    let earliestEnd = Infinity;
    for (const [key, c] of this.counts) {
      if (c.windowEndMs <= now) this.counts.delete(key);
      else earliestEnd = Math.min(earliestEnd, c.windowEndMs);
    }
    if (this.counts.size < this.maxEntries) return;
    throw new UpstreamUnavailableError('quota counts full: no count is forgotten before its window ends', Math.max(1, Math.ceil((earliestEnd - now) / 1000)));
  }
}
