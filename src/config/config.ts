import { isIP } from 'node:net';
import { z } from 'zod';
import { createOffsetDateTimeFormatter } from '../kernel/offset-date-time';

/**
 * The one parser of integer settings: plain decimal digits only. Number() would also take
 * `0x20D3`, `8.4e3`, `0b1`, `1.0` or ` 80 `, and z.coerce the same, so the service would start
 * on a value the operator never wrote.
 */
const digits = (min: number, max: number) => z.string()
  .regex(/^[0-9]+$/, 'must be a whole number in plain decimal digits')
  .transform(Number)
  .pipe(z.number().int().min(min).max(max));
const int = (min: number, max: number, def: number) => z.string().default(String(def)).pipe(digits(min, max));
/** An integer setting without a default: unset means "none" (the reader decides what that is). */
const optionalInt = (min: number, max: number) => digits(min, max).optional();
/** Each node `host:port` with a TCP port (1-65535), so a typo fails at start, not at the first connect. */
const clusterNodes = z.string()
  .regex(/^[^\s,:]+:\d+(,[^\s,:]+:\d+)*$/, 'must be host:port[,host:port...]')
  .refine((v) => v.split(',').every((n) => {
    const port = Number(n.slice(n.lastIndexOf(':') + 1));
    return /:[0-9]{1,5}$/.test(n) && port >= 1 && port <= 65535;
  }), 'each port must be 1-65535');
const bool = (def: boolean) => z.enum(['true', 'false']).default(def ? 'true' : 'false').transform((v) => v === 'true');
const optionalString = z.string().min(1).optional();
const httpUrl = z.string().url().refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL').transform((u) => u.replace(/\/+$/, ''));

/** Slack for event-loop delay and clock steps on top of the deadlines a txn_id claim must outlive. */
const CLAIM_SLACK_MS = 1000;

/**
 * The longest a txn_id claim must hold. A txn_id request makes one upstream call, never both
 * (KYC asks the HLR, SIM swap SIM management) and never a retry (HttpUpstream does not retry),
 * bounded by that upstream's deadline; a request joining another's lookup waits for a call that
 * started earlier, so no longer. After the call come the cache write and the answer's record,
 * each bounded by the Redis command timeout. A claim that lapsed before the record is written
 * would let a retry call the upstream a second time.
 */
export function txnClaimNeedsMs(c: { HLR_TIMEOUT_MS: number; SIM_TIMEOUT_MS: number; REDIS_COMMAND_TIMEOUT_MS: number }): number {
  return Math.max(c.HLR_TIMEOUT_MS, c.SIM_TIMEOUT_MS) + 2 * c.REDIS_COMMAND_TIMEOUT_MS + CLAIM_SLACK_MS;
}

/** One DNS server as c-ares' setServers takes it: an IP, ip:port, or [IPv6]:port. */
function isDnsServer(v: string): boolean {
  const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(v) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(v);
  if (!m) return isIP(v) === 6;
  const port = m[2] === undefined ? 53 : Number(m[2]);
  return isIP(m[1]) !== 0 && port >= 1 && port <= 65535;
}

/** How late Redis may end a timed-out WAIT: one server tick at the default hz 10. */
const WAIT_TICK_MS = 100;

/**
 * Every setting the service reads (CONTRACT §4), with its default and meaning.
 * Values come from the environment as strings; an empty string counts as unset.
 */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Port and interface the HTTP server listens on. */
  PORT: int(0, 65535, 8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  /**
   * The admin listener (probes, /metrics, /internal/events/*): set, those paths answer only
   * there and the partners' port answers them 404; unset, they stay on PORT. 0 picks a free port.
   */
  ADMIN_PORT: z.string().regex(/^[0-9]+$/, 'must be a whole number in plain decimal digits')
    .transform(Number).pipe(z.number().int().min(0).max(65535)).optional(),
  /** The admin listener's interface; default: HOST. */
  ADMIN_HOST: optionalString,
  /** Upstreams; when both are unset (not in production) the simulator runs in-process. */
  HLR_URL: httpUrl.optional(),
  SIM_URL: httpUrl.optional(),
  /**
   * Customer records (CONTRACT §11, KYC Match). Unset: the in-process simulator's when it runs;
   * beside HLR_URL/SIM_URL outside production, none (KYC Match answers 503).
   */
  CRM_URL: httpUrl.optional(),
  /** State: standalone Redis URL or comma-separated cluster nodes; neither = process memory. */
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional(),
  REDIS_CLUSTER_NODES: clusterNodes.optional(),
  REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9:_.{}-]{0,32}$/, 'must be up to 32 of A-Z a-z 0-9 : _ . { } -').default('vc:'),
  REDIS_COMMAND_TIMEOUT_MS: int(10, 60_000, 500),
  /**
   * Replicas that must hold a txn_id claim and its answer before the answer is sent (Redis
   * WAIT), so a failover cannot lose them; 0 = no WAIT (docs/redis.md).
   */
  REDIS_WAIT_REPLICAS: int(0, 16, 0),
  REDIS_WAIT_TIMEOUT_MS: int(1, 30_000, 100),
  /** Partner registry (JSON); default is the demo registry shipped in fixtures/. */
  PARTNERS_FILE: optionalString,
  /** Numbering plan for msisdn normalisation. */
  COUNTRY_CODE: z.string().regex(/^[1-9]\d{0,2}$/, 'must be 1-3 digits, not starting with 0').default('255'),
  NSN_LENGTH: int(4, 14, 9),
  /** IANA zone sim_swapped_dt is rendered in. */
  TIMEZONE: z.string().default('UTC').refine((tz) => {
    try { createOffsetDateTimeFormatter(tz); return true; } catch { return false; }
  }, 'must be an IANA time zone such as UTC or Africa/Dar_es_Salaam'),
  /** Allowed distance between a request's timestamp and the server clock. */
  SIG_MAX_SKEW_S: int(1, 3600, 300),
  TXN_TTL_S: int(60, 30 * 86400, 86400),
  /** How long a txn_id claim holds while its request runs; longer than the request's worst case (see the cross-field rule). */
  TXN_IN_FLIGHT_TTL_S: int(1, 3600, 60),
  SIM_SWAP_MAX_AGE_HOURS: int(1, 2400, 240),
  /** CAMARA: days of SIM-change history the operator may reveal (local regulation); unset = unlimited. */
  SIM_SWAP_MONITORED_DAYS: optionalInt(1, 36_500),
  KYC_CACHE_TTL_S: int(0, 86400, 300),
  KYC_STALE_S: int(0, 7 * 86400, 3600),
  SIM_SWAP_CACHE_TTL_S: int(0, 3600, 30),
  NEGATIVE_CACHE_TTL_S: int(0, 86400, 60),
  /** Per-call deadlines; the call is aborted when they pass. */
  HLR_TIMEOUT_MS: int(10, 60_000, 2000),
  SIM_TIMEOUT_MS: int(10, 60_000, 2000),
  CRM_TIMEOUT_MS: int(10, 60_000, 2000),
  /** KYC Match (CONTRACT §11): `<attr>MatchScore` beside a scored "false". */
  KYC_MATCH_SCORES: bool(true),
  /** KYC Match: idDocument must be sent and match before anything else is compared (403 otherwise). */
  KYC_MATCH_ID_DOCUMENT_REQUIRED: bool(false),
  /** KYC Match requests per partner per number per UTC day, fleet-wide, against guessing; more get 429. */
  KYC_MATCH_MAX_PER_NUMBER_PER_DAY: int(1, 1_000_000, 10),
  UPSTREAM_MAX_SOCKETS: int(1, 10_000, 256),
  /** Circuit breakers: open when this % of at least VOLUME calls in the window fail. */
  BREAKER_ERROR_THRESHOLD_PERCENT: int(1, 100, 50),
  BREAKER_VOLUME_THRESHOLD: int(1, 100_000, 20),
  BREAKER_WINDOW_MS: int(1000, 600_000, 10_000),
  BREAKER_RESET_TIMEOUT_MS: int(100, 600_000, 10_000),
  /** Largest request body accepted (bytes). */
  BODY_LIMIT_BYTES: int(256, 1_048_576, 8192),
  /** Bounds of the in-memory store (embedded default and Redis fallback). */
  MEMORY_CACHE_MAX_ENTRIES: int(100, 10_000_000, 100_000),
  MEMORY_TXN_MAX_ENTRIES: int(100, 50_000_000, 1_000_000),
  /** Bearer token for POST /internal/events/sim-swap; unset = route answers 404. */
  EVENTS_TOKEN: z.string().min(16, 'must be at least 16 characters')
    .regex(/^[A-Za-z0-9._~+/-]+=*$/, 'must be a bearer token68 (A-Z a-z 0-9 . _ ~ + / - then optional =)').optional(),
  GRAPHQL_INTROSPECTION: bool(false),
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
  /** Failed signatures tolerated per (api key, client address) within AUTH_FAIL_WINDOW_S; further attempts of that pair get 429 before any hashing. */
  AUTH_FAIL_LIMIT: int(1, 10_000, 20),
  /** Failed signatures tolerated per client address (IPv6: per /64) within AUTH_FAIL_WINDOW_S, whatever the keys. */
  AUTH_FAIL_ADDRESS_LIMIT: int(1, 10_000, 100),
  AUTH_FAIL_WINDOW_S: int(1, 86_400, 60),
  /** Reverse proxies in front of the service whose X-Forwarded-For is trusted for the client address; 0 = the socket's peer. */
  TRUST_PROXY_HOPS: int(0, 10, 0),
  /** The service's base URL as partners reach it: the built-in OAuth issuer's `iss` and its metadata URLs. Default: the listening address. */
  PUBLIC_URL: httpUrl.optional(),
  /** The built-in OAuth 2.0 issuer (POST /oauth2/token, JWKS, metadata); false: only the external issuer's tokens are accepted. */
  OAUTH_BUILTIN: bool(true),
  /** The built-in issuer's keys: a JWKS/JWK or PEM file, first key signs, others verify only (rotation). Unset: a key generated at start. */
  OAUTH_SIGNING_KEY_FILE: optionalString,
  /** Lifetime of the built-in issuer's access tokens. */
  OAUTH_TOKEN_TTL_S: int(60, 86_400, 3600),
  /** `aud` the service's tokens carry and external tokens must carry; default: the built-in issuer (PUBLIC_URL); unset with only the external issuer: not checked. */
  OAUTH_AUDIENCE: optionalString,
  /** A trusted external issuer (`iss`) and its JWKS URL, set together. */
  OAUTH_ISSUER: optionalString,
  OAUTH_JWKS_URL: httpUrl.optional(),
  /** Longest wait for one fetch of the external JWKS. */
  OAUTH_JWKS_TIMEOUT_MS: int(100, 30_000, 2000),
  /** External keys older than this are refreshed in the background. */
  OAUTH_JWKS_MAX_AGE_S: int(1, 86_400, 600),
  /** After an external JWKS fetch, an unknown kid waits this long before it may trigger another. */
  OAUTH_JWKS_COOLDOWN_S: int(0, 3600, 10),
  /** Allowed clock difference for exp, nbf and iat. */
  OAUTH_CLOCK_TOLERANCE_S: int(0, 300, 30),
  /** External issuer's tokens must carry `typ: at+jwt` (RFC 9068); false also accepts `JWT` or no typ (never a token with `nonce`). The built-in issuer's always must. */
  OAUTH_REQUIRE_AT_JWT_TYP: bool(true),
  /** Verified tokens remembered (by hash) to skip signature checks; 0 disables. Never past a token's exp. */
  OAUTH_VERIFIED_CACHE_MAX: int(0, 1_000_000, 10_000),
  OAUTH_VERIFIED_CACHE_S: int(0, 3600, 60),
  /** Audit trail (CONTRACT §9, docs/audit.md): PostgreSQL when set, else JSON lines under AUDIT_DIR. */
  AUDIT_DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL').optional(),
  /** The embedded store's files and the spool (both hold msisdns); one directory per instance. */
  AUDIT_DIR: z.string().min(1).default('./var'),
  /** Records are kept at least this long, then dropped with their month. */
  AUDIT_RETENTION_DAYS: int(1, 36_500, 395),
  /** true: answer 503 (9999) rather than serve a verification while the audit store cannot take records. */
  AUDIT_FAIL_CLOSED: bool(false),
  /** false: no audit trail at all, for benchmarks that measure its cost; warned about at start. */
  AUDIT_ENABLED: bool(true),
  /** Writer tuning: records per write, longest wait in memory, memory bound, write deadline, replay retry. */
  AUDIT_BATCH_MAX: int(1, 10_000, 500),
  AUDIT_FLUSH_MS: int(1, 600_000, 200),
  AUDIT_BUFFER_MAX: int(10, 1_000_000, 20_000),
  AUDIT_WRITE_TIMEOUT_MS: int(100, 60_000, 2000),
  AUDIT_RETRY_MS: int(50, 600_000, 1000),
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
}).superRefine((c, ctx) => {
  if ((c.HLR_URL === undefined) !== (c.SIM_URL === undefined)) {
    ctx.addIssue({ code: 'custom', path: [c.HLR_URL ? 'SIM_URL' : 'HLR_URL'], message: 'HLR_URL and SIM_URL must be set together' });
  }
  if (c.REDIS_URL && c.REDIS_CLUSTER_NODES) {
    ctx.addIssue({ code: 'custom', path: ['REDIS_CLUSTER_NODES'], message: 'set REDIS_URL or REDIS_CLUSTER_NODES, not both' });
  }
  if (c.REDIS_WAIT_REPLICAS > 0 && !c.REDIS_URL && !c.REDIS_CLUSTER_NODES) {
    ctx.addIssue({ code: 'custom', path: ['REDIS_WAIT_REPLICAS'], message: 'needs Redis (REDIS_URL or REDIS_CLUSTER_NODES)' });
  }
  if (c.REDIS_WAIT_REPLICAS > 0 && 2 * (c.REDIS_WAIT_TIMEOUT_MS + WAIT_TICK_MS) > c.REDIS_COMMAND_TIMEOUT_MS) {
    // A write may queue behind the WAIT in flight on its connection, then wait for its own; Redis
    // ends a timed-out WAIT on its next tick (hz 10: up to 100 ms late). Both must fit in a command.
    ctx.addIssue({ code: 'custom', path: ['REDIS_WAIT_TIMEOUT_MS'], message: `must leave room for two WAITs: 2 × (REDIS_WAIT_TIMEOUT_MS + ${WAIT_TICK_MS}) at most REDIS_COMMAND_TIMEOUT_MS` });
  }
  if (c.ADMIN_PORT !== undefined && c.ADMIN_PORT !== 0 && c.ADMIN_PORT === c.PORT) {
    ctx.addIssue({ code: 'custom', path: ['ADMIN_PORT'], message: 'must differ from PORT (the partners\' port must not answer the admin paths)' });
  }
  if (c.ADMIN_HOST !== undefined && c.ADMIN_PORT === undefined) {
    ctx.addIssue({ code: 'custom', path: ['ADMIN_HOST'], message: 'needs ADMIN_PORT' });
  }
  if (c.NODE_ENV === 'production') {
    // No demo partners (their secrets are public) and no simulator in production.
    if (!c.PARTNERS_FILE) ctx.addIssue({ code: 'custom', path: ['PARTNERS_FILE'], message: 'is required in production' });
    if (!c.HLR_URL) ctx.addIssue({ code: 'custom', path: ['HLR_URL'], message: 'is required in production' });
    if (!c.CRM_URL) ctx.addIssue({ code: 'custom', path: ['CRM_URL'], message: 'is required in production' });
  }
  if ((c.OAUTH_ISSUER === undefined) !== (c.OAUTH_JWKS_URL === undefined)) {
    ctx.addIssue({ code: 'custom', path: [c.OAUTH_ISSUER ? 'OAUTH_JWKS_URL' : 'OAUTH_ISSUER'], message: 'OAUTH_ISSUER and OAUTH_JWKS_URL must be set together' });
  }
  if (!c.OAUTH_BUILTIN && !c.OAUTH_ISSUER) {
    ctx.addIssue({ code: 'custom', path: ['OAUTH_BUILTIN'], message: 'false needs an external issuer (OAUTH_ISSUER, OAUTH_JWKS_URL)' });
  }
  if (c.OAUTH_ISSUER !== undefined && c.PUBLIC_URL !== undefined && c.OAUTH_BUILTIN && c.OAUTH_ISSUER === c.PUBLIC_URL) {
    ctx.addIssue({ code: 'custom', path: ['OAUTH_ISSUER'], message: 'must differ from the built-in issuer (PUBLIC_URL)' });
  }
  if (c.NODE_ENV === 'production' && c.OAUTH_BUILTIN) {
    // A generated key signs tokens no other instance accepts and no restart keeps; a guessed URL makes a wrong `iss`.
    if (!c.OAUTH_SIGNING_KEY_FILE) ctx.addIssue({ code: 'custom', path: ['OAUTH_SIGNING_KEY_FILE'], message: 'is required in production (or OAUTH_BUILTIN=false)' });
    if (!c.PUBLIC_URL) ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: 'is required in production (the built-in issuer\'s identifier)' });
  }
  if (c.NODE_ENV === 'production' && (c.REDIS_URL || c.REDIS_CLUSTER_NODES) && !c.SINK_CREDENTIALS_KEY_FILE) {
    // A generated key dies with the process: credentials stored by it could not be read by another instance or after a restart.
    ctx.addIssue({ code: 'custom', path: ['SINK_CREDENTIALS_KEY_FILE'], message: 'is required in production with Redis' });
  }
  if (c.NODE_ENV === 'production' && c.OAUTH_JWKS_URL && !c.OAUTH_JWKS_URL.startsWith('https://')) {
    ctx.addIssue({ code: 'custom', path: ['OAUTH_JWKS_URL'], message: 'must be https in production' });
  }
  if (c.HEADERS_TIMEOUT_MS > c.REQUEST_TIMEOUT_MS) {
    // Node refuses to start a server whose headers timeout exceeds its request timeout.
    ctx.addIssue({ code: 'custom', path: ['HEADERS_TIMEOUT_MS'], message: 'must be at most REQUEST_TIMEOUT_MS' });
  }
  if (c.WEBHOOK_BACKOFF_BASE_MS > c.WEBHOOK_BACKOFF_MAX_MS) {
    ctx.addIssue({ code: 'custom', path: ['WEBHOOK_BACKOFF_BASE_MS'], message: 'must be at most WEBHOOK_BACKOFF_MAX_MS' });
  }
  const claimNeedsMs = txnClaimNeedsMs(c);
  if (c.TXN_IN_FLIGHT_TTL_S * 1000 < claimNeedsMs) {
    ctx.addIssue({
      code: 'custom', path: ['TXN_IN_FLIGHT_TTL_S'],
      message: `must outlast a request's upstream call and state writes: at least ${Math.ceil(claimNeedsMs / 1000)} s `
        + '(max(HLR_TIMEOUT_MS, SIM_TIMEOUT_MS) + 2 × REDIS_COMMAND_TIMEOUT_MS + 1000 ms)',
    });
  }
  if (c.WEBHOOK_PARTNER_CONCURRENCY !== undefined && c.WEBHOOK_PARTNER_CONCURRENCY > c.WEBHOOK_CONCURRENCY) {
    ctx.addIssue({ code: 'custom', path: ['WEBHOOK_PARTNER_CONCURRENCY'], message: 'must be at most WEBHOOK_CONCURRENCY' });
  }
  if (c.KYC_STALE_S < c.KYC_CACHE_TTL_S) {
    ctx.addIssue({ code: 'custom', path: ['KYC_STALE_S'], message: 'must be at least KYC_CACHE_TTL_S' });
  }
});

export type Config = z.infer<typeof configSchema>;

/** Production waits 5 s for the balancer by default; development and tests (npm start, Ctrl-C) do not wait. */
export const PRODUCTION_READINESS_DELAY_MS = 5000;

/** SHUTDOWN_READINESS_DELAY_MS as set, else 5000 with NODE_ENV=production and 0 otherwise. */
export function readinessDelayMs(c: Pick<Config, 'SHUTDOWN_READINESS_DELAY_MS' | 'NODE_ENV'>): number {
  return c.SHUTDOWN_READINESS_DELAY_MS ?? (c.NODE_ENV === 'production' ? PRODUCTION_READINESS_DELAY_MS : 0);
}

/** WEBHOOK_PARTNER_CONCURRENCY as set, else 16 capped at WEBHOOK_CONCURRENCY. */
export function webhookPartnerConcurrency(c: Pick<Config, 'WEBHOOK_PARTNER_CONCURRENCY' | 'WEBHOOK_CONCURRENCY'>): number {
  return c.WEBHOOK_PARTNER_CONCURRENCY ?? Math.min(16, c.WEBHOOK_CONCURRENCY);
}

export class ConfigError extends Error {}

/** Reads and validates settings; throws ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(configSchema.innerType().shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') raw[key] = v;
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(config)'}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
