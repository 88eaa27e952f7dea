import { Clock } from '../../kernel/clock';
import { QuotaCounter, RateDecision } from '../ports/state-store';
import { RedisClient } from './redis-connection';
import { quotaKey } from './redis-keys';

/**
 * Window counts for the whole fleet under `<prefix>{<apiKey>}:q:<rest>`: one atomic script
 * (redis-scripts.ts QUOTA_TAKE) checks and counts, so simultaneous requests on any number of
 * instances never count past the limit. The key expires when its window ends.
 */
export class RedisQuotaCounter implements QuotaCounter {
  constructor(private readonly client: RedisClient, private readonly keyPrefix: string, private readonly clock: Clock) {}

  async take(key: string, limit: number, windowEndMs: number): Promise<RateDecision> {
    const allowed = await this.client.vcQuotaTake(quotaKey(this.keyPrefix, key), limit, Math.ceil(windowEndMs));
    return allowed === 1 ? { allowed: true, retryAfterMs: 0 } : { allowed: false, retryAfterMs: Math.max(0, windowEndMs - this.clock.nowMs()) };
  }

  async giveBack(key: string): Promise<void> {
    await this.client.vcQuotaGiveBack(quotaKey(this.keyPrefix, key));
  }
}
