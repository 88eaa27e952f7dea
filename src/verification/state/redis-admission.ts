import { Admission, AdmissionControl, AdmissionRequest } from '../ports/state-store';
import { RedisClient } from './redis-connection';
import { rateKey, txnKey } from './redis-keys';
import { RedisRateLimiter } from './redis-rate-limiter';
import { RedisTxnStore, claimOf, inFlightValue, ttlMsOf } from './redis-txn-store';

/**
 * Admission on Redis in one round trip. With a rate limit and a txn_id, one script charges
 * the bucket and, only if allowed, claims the txn_id (both keys carry the partner's hash tag,
 * redis-keys.ts); with only one of them, that one's script; with neither, no call at all.
 * The claim is not waited for with REDIS_WAIT_REPLICAS: the answer's record is, and its WAIT
 * covers the claim too (same connection, written before); see redis-replication-wait.ts.
 */
export class RedisAdmission implements AdmissionControl {
  constructor(
    private readonly client: RedisClient,
    private readonly keyPrefix: string,
    private readonly rateLimiter: RedisRateLimiter,
    private readonly txns: RedisTxnStore,
  ) {}

  async admit(req: AdmissionRequest): Promise<Admission> {
    const { rate, txn } = req;
    if (rate && txn) {
      const [allowed, retryAfterMs, held] = await this.client.vcAdmit(
        rateKey(this.keyPrefix, rate.key), txnKey(this.keyPrefix, txn.key), ...this.rateLimiter.takeArgs(rate.limit, rate.cost),
        inFlightValue(txn.fingerprint, txn.owner), ttlMsOf(txn.ttlS));
      if (allowed !== 1) return { status: 'refused', retryAfterMs };
      return { status: 'admitted', claim: claimOf(held) };
    }
    if (rate) {
      const decision = await this.rateLimiter.take(rate.key, rate.limit, rate.cost);
      return decision.allowed ? { status: 'admitted' } : { status: 'refused', retryAfterMs: decision.retryAfterMs };
    }
    if (txn) return { status: 'admitted', claim: await this.txns.claim(txn.key, txn.fingerprint, txn.ttlS, txn.owner) };
    return { status: 'admitted' };
  }
}
