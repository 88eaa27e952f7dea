import { Clock } from '../../kernel/clock';
import { RateLimit } from '../../partners/partners';
import { RateDecision, RateLimiter } from '../ports/state-store';
import { RedisClient } from './redis-connection';
import { rateKey } from './redis-keys';

/**
 * One token bucket per partner for all instances, under `<prefix>{<apiKey>}:r`: a small hash
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
    const [allowed, retryAfterMs] = await this.client.vcRateTake(rateKey(this.keyPrefix, key), ...this.takeArgs(limit, cost));
    return { allowed: allowed === 1, retryAfterMs: allowed === 1 ? 0 : retryAfterMs };
  }

  /** The script's arguments after the key: now, rate, burst, bucket ttl, tokens needed. */
  takeArgs(limit: RateLimit, cost: number): [number, number, number, number, number] {
    // The bucket is full again after burst / perSecond seconds: past that, keeping it is waste.
    const ttlMs = Math.ceil((limit.burst / limit.perSecond) * 1000) + 1000;
    return [Math.trunc(this.clock.nowMs()), limit.perSecond, limit.burst, ttlMs, Math.max(1, cost)];
  }
}
