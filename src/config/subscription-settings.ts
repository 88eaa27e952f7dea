import { isIP } from 'node:net';
import { z } from 'zod';
import { SettingsOf, SettingsRule, bool, int, issue, optionalInt, optionalString } from './setting-types';
import { ServerSettings } from './server-settings';
import { StateSettings, usesRedis } from './state-settings';

/** One DNS server as c-ares' setServers takes it: an IP, ip:port, or [IPv6]:port. */
function isDnsServer(v: string): boolean {
  const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(v) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(v);
  if (!m) return isIP(v) === 6;
  const port = m[2] === undefined ? 53 : Number(m[2]);
  return isIP(m[1]) !== 0 && port >= 1 && port <= 65535;
}

/** SIM Swap Subscriptions and their webhook deliveries (CONTRACT §8). */
export const subscriptionSettings = {
  /** CONTRACT §8 sink rules: plain http sinks, and sinks resolving to loopback/private/link-local addresses. */
  SINK_ALLOW_HTTP: bool(false),
  SINK_ALLOW_PRIVATE: bool(false),
  /**
   * DNS servers sink hosts are resolved with (ip or ip:port, comma-separated; IPv6 as [ip]:port),
   * through c-ares, never the libuv thread pool the upstream clients share. Unset: the system's
   * (/etc/resolv.conf).
   */
  SINK_DNS_SERVERS: z.string().refine((v) => v.split(',').every(isDnsServer), 'must be ip[:port][,ip[:port]...] (IPv6 as [ip]:port)').optional(),
  /** Longest wait for a sink host's addresses, at creation (then 400 INVALID_SINK) and at each delivery attempt. */
  SINK_DNS_TIMEOUT_MS: int(100, 30_000, 2000),
  /**
   * 32-byte key (base64 or 64 hex digits) that encrypts sink credentials in Redis and in queued
   * deliveries (AES-256-GCM). Unset: a key generated at start (memory state; with Redis, required in production).
   */
  SINK_CREDENTIALS_KEY_FILE: optionalString,
  /** How long an event is retried before it is dead-lettered. */
  WEBHOOK_RETRY_WINDOW_S: int(1, 30 * 86_400, 86_400),
  /** One delivery attempt, connect to last byte. */
  WEBHOOK_TIMEOUT_MS: int(100, 60_000, 5000),
  /** Deliveries in flight to one sink origin, per instance. */
  WEBHOOK_SINK_CONCURRENCY: int(1, 1000, 4),
  /** Deliveries in flight per instance, all sinks together. */
  WEBHOOK_CONCURRENCY: int(1, 1000, 64),
  /**
   * Deliveries in flight to one partner's sinks, all origins together, per instance, so one
   * partner's slow sinks never hold every slot; at most WEBHOOK_CONCURRENCY. Unset: 16, or
   * WEBHOOK_CONCURRENCY when that is lower (webhookPartnerConcurrency).
   */
  WEBHOOK_PARTNER_CONCURRENCY: optionalInt(1, 1000),
  /** Live subscriptions one partner may hold; a creation over it is 429 QUOTA_EXCEEDED. */
  SUBSCRIPTIONS_MAX_PER_PARTNER: int(1, 10_000_000, 1000),
  /** Backoff: first retry after about this (jittered, doubling), never more than the max. */
  WEBHOOK_BACKOFF_BASE_MS: int(10, 3_600_000, 1000),
  WEBHOOK_BACKOFF_MAX_MS: int(10, 86_400_000, 3_600_000),
  /**
   * A delivery held by an instance that died (or lost Redis) mid-attempt is taken over after about this long;
   * an instance that has not started delivery also looks this often for a queue in use.
   */
  WEBHOOK_LOCK_MS: int(1000, 600_000, 30_000),
  /** Dead letters kept at most this long (on Redis; a replay resets it) and at most this many (the oldest go first). */
  WEBHOOK_DEAD_LETTER_RETENTION_S: int(60, 365 * 86_400, 7 * 86_400),
  WEBHOOK_DEAD_LETTER_MAX: int(1, 10_000_000, 10_000),
  /** How often each instance ends subscriptions whose expiry has passed. */
  SUBSCRIPTION_SWEEP_MS: int(50, 3_600_000, 1000),
};

export type SubscriptionSettings = SettingsOf<typeof subscriptionSettings>;

type SharedStateInputs = Pick<ServerSettings, 'NODE_ENV'> & Pick<StateSettings, 'REDIS_URL' | 'REDIS_CLUSTER_NODES'>;

export const productionSinkKeyRule: SettingsRule<SubscriptionSettings & SharedStateInputs> = (c, ctx) => {
  // A generated key dies with the process: credentials stored by it could not be read by another instance or after a restart.
  if (c.NODE_ENV === 'production' && usesRedis(c) && !c.SINK_CREDENTIALS_KEY_FILE) {
    issue(ctx, 'SINK_CREDENTIALS_KEY_FILE', 'is required in production with Redis');
  }
};

export const backoffRule: SettingsRule<SubscriptionSettings> = (c, ctx) => {
  if (c.WEBHOOK_BACKOFF_BASE_MS > c.WEBHOOK_BACKOFF_MAX_MS) issue(ctx, 'WEBHOOK_BACKOFF_BASE_MS', 'must be at most WEBHOOK_BACKOFF_MAX_MS');
};

export const concurrencyRule: SettingsRule<SubscriptionSettings> = (c, ctx) => {
  if (c.WEBHOOK_PARTNER_CONCURRENCY !== undefined && c.WEBHOOK_PARTNER_CONCURRENCY > c.WEBHOOK_CONCURRENCY) {
    issue(ctx, 'WEBHOOK_PARTNER_CONCURRENCY', 'must be at most WEBHOOK_CONCURRENCY');
  }
};

/** WEBHOOK_PARTNER_CONCURRENCY as set, else 16 capped at WEBHOOK_CONCURRENCY. */
export function webhookPartnerConcurrency(c: Pick<SubscriptionSettings, 'WEBHOOK_PARTNER_CONCURRENCY' | 'WEBHOOK_CONCURRENCY'>): number {
  return c.WEBHOOK_PARTNER_CONCURRENCY ?? Math.min(16, c.WEBHOOK_CONCURRENCY);
}
