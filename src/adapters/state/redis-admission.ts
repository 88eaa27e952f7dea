import { Admission, AdmissionControl, AdmissionRequest } from '../../domain/ports/state-store';
import { RedisClient } from './redis-connection';
import { rateKey, txnKey, txnTag } from './redis-keys';
import { RedisRateLimiter } from './redis-rate-limiter';
import { ReplicationWait } from './redis-replication-wait';
import { RedisTxnStore, claimOf, inFlightValue, ttlMsOf } from './redis-txn-store';

/**
 * Admission on Redis in one round trip. With a rate limit and a txn_id, one script charges
 * the bucket and, only if allowed, claims the txn_id (both keys carry the partner's hash tag,
 * redis-keys.ts); with only one of them, that one's script; with neither, no call at all.
 * With a replication wait, a claim counts once a replica holds it (redis-replication-wait.ts).
 */
export class RedisAdmission implements AdmissionControl {
  constructor(
    private readonly client: RedisClient,
    private readonly keyPrefix: string,
    private readonly rateLimiter: RedisRateLimiter,
    private readonly txns: RedisTxnStore,
    private readonly replication?: ReplicationWait,
  ) {}

  async admit(req: AdmissionRequest): Promise<Admission> {
    const { rate, txn } = req;
    if (rate && txn) {
      const redisKey = txnKey(this.keyPrefix, txn.key);
      const send = () => this.client.vcAdmit(rateKey(this.keyPrefix, rate.key), redisKey, ...this.rateLimiter.takeArgs(rate.limit, rate.cost),
        inFlightValue(txn.fingerprint), ttlMsOf(txn.ttlS));
      const [allowed, retryAfterMs, held] = this.replication ? await this.replication.after(this.client, txnTag(txn.key), redisKey, send) : await send();
      if (allowed !== 1) return { status: 'refused', retryAfterMs };
      return { status: 'admitted', claim: claimOf(held) };
    }
    if (rate) {
      const decision = await this.rateLimiter.take(rate.key, rate.limit, rate.cost);
      return decision.allowed ? { status: 'admitted' } : { status: 'refused', retryAfterMs: decision.retryAfterMs };
    }
    if (txn) return { status: 'admitted', claim: await this.txns.claim(txn.key, txn.fingerprint, txn.ttlS) };
    return { status: 'admitted' };
  }
}
