import { z } from 'zod';
import { SettingsOf, SettingsRule, int, issue, optionalInt } from './setting-types';

/** Each node `host:port` with a TCP port (1-65535), so a typo fails at start, not at the first connect. */
const clusterNodes = z.string()
  .regex(/^[^\s,:]+:\d+(,[^\s,:]+:\d+)*$/, 'must be host:port[,host:port...]')
  .refine((v) => v.split(',').every((n) => {
    const port = Number(n.slice(n.lastIndexOf(':') + 1));
    return /:[0-9]{1,5}$/.test(n) && port >= 1 && port <= 65535;
  }), 'each port must be 1-65535');

/** Shared state: Redis (standalone or Cluster) or process memory, and the memory store's bounds. */
export const stateSettings = {
  /** State: standalone Redis URL or comma-separated cluster nodes; neither = process memory. */
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional(),
  REDIS_CLUSTER_NODES: clusterNodes.optional(),
  REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9:_.{}-]{0,32}$/, 'must be up to 32 of A-Z a-z 0-9 : _ . { } -').default('vc:'),
  REDIS_COMMAND_TIMEOUT_MS: int(10, 60_000, 500),
  /**
   * How long Redis may leave every command (and the health check's PINGs) unanswered before it
   * is judged unavailable and state falls back to process memory. A single slow command is not
   * an outage: it is answered 9999/503 (docs/redis.md, "Slow is not down"). Unset: 3000, or
   * REDIS_COMMAND_TIMEOUT_MS when that is longer (healthTimeoutMs below).
   */
  REDIS_HEALTH_TIMEOUT_MS: optionalInt(100, 600_000),
  /**
   * Replicas that must hold a txn_id claim and its answer before the answer is sent (Redis
   * WAIT), so a failover cannot lose them; 0 = no WAIT (docs/redis.md).
   */
  REDIS_WAIT_REPLICAS: int(0, 16, 0),
  REDIS_WAIT_TIMEOUT_MS: int(1, 30_000, 100),
  /** Bounds of the in-memory store (embedded default and Redis fallback). */
  MEMORY_CACHE_MAX_ENTRIES: int(100, 10_000_000, 100_000),
  MEMORY_TXN_MAX_ENTRIES: int(100, 50_000_000, 1_000_000),
};

export type StateSettings = SettingsOf<typeof stateSettings>;

/** How late Redis may end a timed-out WAIT: one server tick at the default hz 10. */
const WAIT_TICK_MS = 100;

export const stateRules: SettingsRule<StateSettings> = (c, ctx) => {
  if (c.REDIS_URL && c.REDIS_CLUSTER_NODES) issue(ctx, 'REDIS_CLUSTER_NODES', 'set REDIS_URL or REDIS_CLUSTER_NODES, not both');
  if (c.REDIS_HEALTH_TIMEOUT_MS !== undefined && c.REDIS_HEALTH_TIMEOUT_MS < c.REDIS_COMMAND_TIMEOUT_MS) {
    issue(ctx, 'REDIS_HEALTH_TIMEOUT_MS', 'must be at least REDIS_COMMAND_TIMEOUT_MS: one slow command must not make Redis count as down');
  }
  if (c.REDIS_WAIT_REPLICAS > 0 && !c.REDIS_URL && !c.REDIS_CLUSTER_NODES) {
    issue(ctx, 'REDIS_WAIT_REPLICAS', 'needs Redis (REDIS_URL or REDIS_CLUSTER_NODES)');
  }
  if (c.REDIS_WAIT_REPLICAS > 0 && 2 * (c.REDIS_WAIT_TIMEOUT_MS + WAIT_TICK_MS) > c.REDIS_COMMAND_TIMEOUT_MS) {
    // A write may queue behind the WAIT in flight on its connection, then wait for its own; Redis
    // ends a timed-out WAIT on its next tick (hz 10: up to 100 ms late). Both must fit in a command.
    issue(ctx, 'REDIS_WAIT_TIMEOUT_MS', `must leave room for two WAITs: 2 × (REDIS_WAIT_TIMEOUT_MS + ${WAIT_TICK_MS}) at most REDIS_COMMAND_TIMEOUT_MS`);
  }
};

/** Whether the state lives on Redis (standalone or Cluster) rather than in process memory. */
export function usesRedis(c: Pick<StateSettings, 'REDIS_URL' | 'REDIS_CLUSTER_NODES'>): boolean {
  return Boolean(c.REDIS_URL || c.REDIS_CLUSTER_NODES);
}

/** The health check's patience: REDIS_HEALTH_TIMEOUT_MS, else 3 s, and never under a command's timeout. */
export function healthTimeoutMs(c: Pick<StateSettings, 'REDIS_HEALTH_TIMEOUT_MS' | 'REDIS_COMMAND_TIMEOUT_MS'>): number {
  return c.REDIS_HEALTH_TIMEOUT_MS ?? Math.max(3000, c.REDIS_COMMAND_TIMEOUT_MS);
}
