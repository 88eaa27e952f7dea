import { Clock } from '../../kernel/clock';
import { StateStore, StoreMode } from '../ports/state-store';
import { RedisAdmission } from './redis-admission';
import { RedisCache } from './redis-cache';
import { ConnectionEvent, RedisClient, RedisConnectionOptions, closeClient, createRedisClient, probe, watchConnection } from './redis-connection';
import { RedisQuotaCounter } from './redis-quota-counter';
import { RedisRateLimiter } from './redis-rate-limiter';
import { ReplicationWait, ReplicationWaitOptions } from './redis-replication-wait';
import { RedisTxnStore } from './redis-txn-store';
import { isRedisTimeout, isRedisUnavailable } from './redis-unavailable';

export interface RedisStateStoreOptions extends RedisConnectionOptions {
  /** Prepended to every key (REDIS_KEY_PREFIX), so services can share a Redis. */
  keyPrefix: string;
  clock: Clock;
  /** WAIT for replicas after every txn_id write (REDIS_WAIT_REPLICAS > 0); absent: no WAIT. */
  replicationWait?: ReplicationWaitOptions;
}

/**
 * All state on Redis (standalone or cluster), shared by every instance. It knows nothing of
 * outages beyond reporting them: the fallback store (fallback-state-store.ts) decides what to
 * do while Redis is away.
 */
export class RedisStateStore implements StateStore {
  readonly cache: RedisCache;
  readonly txns: RedisTxnStore;
  readonly rateLimiter: RedisRateLimiter;
  readonly admission: RedisAdmission;
  readonly quotas: RedisQuotaCounter;
  readonly kind: 'standalone' | 'cluster';
  /** Standalone: commandTimeout bounds every command (no redirections, no offline queue). */
  readonly boundsEachCall: boolean;
  private readonly client: RedisClient;

  constructor(opts: RedisStateStoreOptions) {
    this.client = createRedisClient(opts);
    this.kind = opts.clusterNodes ? 'cluster' : 'standalone';
    this.boundsEachCall = this.kind === 'standalone';
    // Short namespaces: the prefix is paid on every key.
    this.cache = new RedisCache(this.client, `${opts.keyPrefix}c:`);
    // A partner's txn_ids and rate bucket share its hash tag (redis-keys.ts).
    const replication = opts.replicationWait ? new ReplicationWait(opts.replicationWait, opts.clock) : undefined;
    this.txns = new RedisTxnStore(this.client, opts.keyPrefix, replication);
    this.rateLimiter = new RedisRateLimiter(this.client, opts.keyPrefix, opts.clock);
    this.admission = new RedisAdmission(this.client, opts.keyPrefix, this.rateLimiter, this.txns);
    this.quotas = new RedisQuotaCounter(this.client, opts.keyPrefix, opts.clock);
  }

  mode(): StoreMode {
    return this.client.status === 'ready' ? 'redis' : 'degraded';
  }

  /** Reports connection changes (ready, lost, worth a probe). */
  onConnection(listener: (event: ConnectionEvent, err?: Error) => void): void {
    watchConnection(this.client, listener);
  }

  /** Resolves when Redis answers on every master; rejects otherwise. */
  probe(timeoutMs: number): Promise<void> {
    return probe(this.client, timeoutMs);
  }

  isTimeout(err: unknown): boolean {
    return isRedisTimeout(err);
  }

  isUnavailable(err: unknown): boolean {
    return isRedisUnavailable(err);
  }

  async close(): Promise<void> {
    await closeClient(this.client);
  }
}
