import { Clock } from '../../domain/ports/clock';
import { RateDecision, RateLimit, RateLimiter } from '../../domain/ports/state-store';
import { RedisClient } from './redis-connection';

/**
 * One token bucket per partner for all instances, under `<prefix>r:<apiKey>`: a small hash
 * updated by one atomic script (redis-scripts.ts RATE_TAKE), so concurrent requests on any
 * number of instances never take the same token twice.
 *
 * The caller's clock drives refills, as in the memory limiter: the same arithmetic, and tests
 * can move time. Instances are NTP-synchronised; the script never refills for time that runs
 * backwards, so skew costs at most the skew's worth of tokens.
 */
export class RedisRateLimiter implements RateLimiter {
  constructor(private readonly client: RedisClient, private readonly keyPrefix: string, private readonly clock: Clock) {}

  async take(key: string, limit: RateLimit, cost = 1): Promise<RateDecision> {
    const need = Math.min(Math.max(1, cost), limit.burst);
    // The bucket is full again after burst / perSecond seconds: past that, keeping it is waste.
    const ttlMs = Math.ceil((limit.burst / limit.perSecond) * 1000) + 1000;
    const [allowed, retryAfterMs] = await this.client.vcRateTake(this.keyPrefix + key, Math.trunc(this.clock.nowMs()), limit.perSecond, limit.burst, ttlMs, need);
    return { allowed: allowed === 1, retryAfterMs: allowed === 1 ? 0 : retryAfterMs };
  }
}
