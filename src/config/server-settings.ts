import { z } from 'zod';
import { SettingsOf, SettingsRule, digits, int, issue, optionalInt, optionalString } from './setting-types';

/** The process and its HTTP listeners: ports, timeouts, body limit, logging, shutdown. */
export const serverSettings = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Port and interface the HTTP server listens on. */
  PORT: int(0, 65535, 8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  /**
   * The admin listener (probes, /metrics, /internal/events/*): set, those paths answer only
   * there and the partners' port answers them 404; unset, they stay on PORT. 0 picks a free port.
   */
  ADMIN_PORT: digits(0, 65535).optional(),
  /** The admin listener's interface; default: HOST. */
  ADMIN_HOST: optionalString,
  /** Largest request body accepted (bytes). */
  BODY_LIMIT_BYTES: int(256, 1_048_576, 8192),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Longest wait for in-flight requests on SIGTERM before connections are cut. */
  SHUTDOWN_GRACE_MS: int(0, 600_000, 10_000),
  /**
   * After SIGTERM, how long /readyz answers 503 while the service still accepts and serves, so a
   * balancer takes the instance out before its listener closes. Unset: see readinessDelayMs().
   */
  SHUTDOWN_READINESS_DELAY_MS: optionalInt(0, 600_000),
  /** Whole request (headers and body) must arrive within this; slower clients get 408 and a closed socket. */
  REQUEST_TIMEOUT_MS: int(100, 600_000, 30_000),
  /** Request headers must arrive within this (slowloris); at most REQUEST_TIMEOUT_MS. */
  HEADERS_TIMEOUT_MS: int(100, 600_000, 10_000),
  /** Reverse proxies in front of the service whose X-Forwarded-For is trusted for the client address; 0 = the socket's peer. */
  TRUST_PROXY_HOPS: int(0, 10, 0),
};

export type ServerSettings = SettingsOf<typeof serverSettings>;

export const listenerRules: SettingsRule<ServerSettings> = (c, ctx) => {
  if (c.ADMIN_PORT !== undefined && c.ADMIN_PORT !== 0 && c.ADMIN_PORT === c.PORT) {
    issue(ctx, 'ADMIN_PORT', 'must differ from PORT (the partners\' port must not answer the admin paths)');
  }
  if (c.ADMIN_HOST !== undefined && c.ADMIN_PORT === undefined) issue(ctx, 'ADMIN_HOST', 'needs ADMIN_PORT');
};

export const timeoutRules: SettingsRule<ServerSettings> = (c, ctx) => {
  // Node refuses to start a server whose headers timeout exceeds its request timeout.
  if (c.HEADERS_TIMEOUT_MS > c.REQUEST_TIMEOUT_MS) issue(ctx, 'HEADERS_TIMEOUT_MS', 'must be at most REQUEST_TIMEOUT_MS');
};

/** Production waits 5 s for the balancer by default; development and tests (npm start, Ctrl-C) do not wait. */
export const PRODUCTION_READINESS_DELAY_MS = 5000;

/** SHUTDOWN_READINESS_DELAY_MS as set, else 5000 with NODE_ENV=production and 0 otherwise. */
export function readinessDelayMs(c: Pick<ServerSettings, 'SHUTDOWN_READINESS_DELAY_MS' | 'NODE_ENV'>): number {
  return c.SHUTDOWN_READINESS_DELAY_MS ?? (c.NODE_ENV === 'production' ? PRODUCTION_READINESS_DELAY_MS : 0);
}
