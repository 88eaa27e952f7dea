import { Clock } from '../../kernel/clock';
import { RateLimit } from '../../partners/partners';
import { RateDecision, RateLimiter } from '../ports/state-store';

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/** A token bucket per key: `burst` tokens at most, refilled at `perSecond`. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly clock: Clock) {}

  async take(key: string, limit: RateLimit, cost = 1): Promise<RateDecision> {
    const need = Math.max(1, cost);
    const now = this.clock.nowMs();
    const b = this.buckets.get(key) ?? { tokens: limit.burst, updatedMs: now };
    b.tokens = Math.min(limit.burst, b.tokens + ((now - b.updatedMs) / 1000) * limit.perSecond);
    b.updatedMs = now;
    this.buckets.set(key, b);
    if (b.tokens >= need) {
      b.tokens -= need;
      return { allowed: true, retryAfterMs: 0 };
    }
    return { allowed: false, retryAfterMs: Math.ceil(((need - b.tokens) / limit.perSecond) * 1000) };
  }
}
