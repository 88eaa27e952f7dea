import { getHeapStatistics } from 'node:v8';
import { StateSettings, healthTimeoutMs } from '../../config/state-settings';
import { Clock } from '../../kernel/clock';
import { Metrics } from '../ports/metrics';
import { StateStore } from '../ports/state-store';
import { Logger } from '../../observability/logger';
import { FallbackStateStore } from './fallback-state-store';
import { withFleetQuotas } from './fleet-quota-counter';
import { MemoryStateStore } from './memory-state-store';
import { RedisStateStore } from './redis-state-store';

export interface StateStoreDeps {
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
}

/** While Redis is up, how often it is confirmed; while down, how often it is tried again. */
const PROBE_INTERVAL_MS = 1000;

/*
 * The share of the V8 heap limit (--max-old-space-size; 384 MB in the Kubernetes manifest)
 * that txn_ids may take while Redis is down. Derived rather than set: it follows the heap the
 * pod is given, and the rest of the heap (requests in flight, the upstream agents, BullMQ, the
 * audit buffer, the garbage collector's headroom) keeps 60 %. Numbers in docs/redis.md.
 */
const DEGRADED_TXN_HEAP_SHARE = 0.4;

/** The byte budget for txn_ids in degraded mode: 40 % of this process's heap limit. */
export function degradedTxnBudgetBytes(heapSizeLimit = getHeapStatistics().heap_size_limit): number {
  return Math.floor(heapSizeLimit * DEGRADED_TXN_HEAP_SHARE);
}

/**
 * The state store the config asks for: process memory when neither REDIS_URL nor
 * REDIS_CLUSTER_NODES is set (one instance only), else Redis behind the in-memory fallback,
 * whose quotas refuse rather than count per instance (fleet-quota-counter.ts).
 */
export function createStateStore(config: StateSettings, deps: StateStoreDeps): StateStore {
  const { clock, logger, metrics } = deps;
  const memory = new MemoryStateStore({
    clock,
    maxCacheEntries: config.MEMORY_CACHE_MAX_ENTRIES,
    maxTxnEntries: config.MEMORY_TXN_MAX_ENTRIES,
    onTxnEvict: () => logger.warn('txn_id store full: oldest record evicted'),
  });
  if (!config.REDIS_URL && !config.REDIS_CLUSTER_NODES) return memory;

  const redis = new RedisStateStore({
    url: config.REDIS_URL,
    clusterNodes: config.REDIS_CLUSTER_NODES,
    commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
    keyPrefix: config.REDIS_KEY_PREFIX,
    clock,
    ...(config.REDIS_WAIT_REPLICAS > 0 ? {
      replicationWait: {
        replicas: config.REDIS_WAIT_REPLICAS,
        timeoutMs: config.REDIS_WAIT_TIMEOUT_MS,
        onWait: (outcome) => metrics.replicationWait(outcome),
      },
    } : {}),
  });
  // The URL stays out of the log: it may carry a password.
  logger.info({ redis: redis.kind, keyPrefix: config.REDIS_KEY_PREFIX }, 'state on Redis; connecting');
  // Quotas (KYC Match's allowance) are fleet-wide or refused, never counted per instance.
  return withFleetQuotas(new FallbackStateStore(redis, memory, {
    clock,
    logger,
    metrics,
    commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
    healthTimeoutMs: healthTimeoutMs(config),
    probeIntervalMs: PROBE_INTERVAL_MS,
    maxJournalEntries: config.MEMORY_TXN_MAX_ENTRIES,
    maxDegradedTxnBytes: degradedTxnBudgetBytes(),
  }), redis);
}
