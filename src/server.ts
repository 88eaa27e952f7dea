import { createAdmin } from './admin/create-admin';
import { CAMARA_API_FACTORIES } from './camara-apis';
import { withCamaraNotFound } from './camara/not-found-routes';
import { Config } from './config/config';
import { createAudit } from './audit/create-audit';
import { AuditWriter } from './audit/adapters/create-audit-writer';
import { createGraphql } from './graphql/create-graphql';
import { createHttp } from './http/create-http';
import { Routes } from './http/routes';
import { Clock, systemClock } from './kernel/clock';
import { Lifecycle } from './kernel/lifecycle';
import { createLegacyRest } from './legacy-rest/create-legacy-rest';
import { createOauth } from './oauth/create-oauth';
import { AccessTokenVerifier } from './oauth/ports/access-tokens';
import { Logger, createLogger } from './observability/logger';
import { PrometheusMetrics } from './observability/prometheus-metrics';
import { PrometheusWebhookMetrics } from './observability/webhook-metrics';
import { createOps } from './ops/create-ops';
import { RegistryState, createPartners } from './partners/create-partners';
import { CAMARA_APIS } from './partners/camara-apis';
import { PartnerRegistry } from './partners/partners';
import { PartnerAdmin } from './partners/ports/partner-admin';
import { Simulator } from './simulator/simulator';
import { createSubscriptions } from './subscriptions/create-subscriptions';
import { createVerification } from './verification/create-verification';
import { StateStore } from './verification/ports/state-store';
import { createState } from './verification/state/create-state';
import { createUpstreams } from './verification/upstream/create-upstreams';

export interface ServerOptions {
  logger?: Logger;
  clock?: Clock;
  /** A state store built by the caller (tests, Redis wiring); default: process memory. */
  store?: StateStore;
}

export interface RunningServer {
  url: string;
  port: number;
  /** The admin listener (probes, /metrics, /internal/events/*) when ADMIN_PORT is set. */
  adminUrl?: string;
  adminPort?: number;
  /** Where the admin API and console answer (ADMIN_PORT's listener, or outside production a loopback one); undefined: off. */
  consoleUrl?: string;
  /** What to print at start about the console: its address and, in development, the one-time login link. */
  consoleBanner: string[];
  metrics: PrometheusMetrics;
  /** The partner registry in force (PARTNERS_FILE, or PostgreSQL with DATABASE_URL). */
  partners: PartnerRegistry;
  /** The management plane over the same registry (CONTRACT §12). */
  partnerAdmin: PartnerAdmin;
  /** The registry's state as /readyz reports it: file, database, stale or unloaded. */
  registryState(): RegistryState;
  /** Verifies CAMARA bearer tokens (built-in and external issuer). */
  accessTokens: AccessTokenVerifier;
  /** The built-in OAuth issuer's identifier (PUBLIC_URL or the listening address); undefined when OAUTH_BUILTIN=false. */
  oauthIssuer?: string;
  /** The audit trail's writer (tests flush it). */
  audit: AuditWriter;
  /** The in-process simulator when no upstream URLs were configured. */
  simulator?: Simulator;
  simulatorUrl?: string;
  /** Re-reads PARTNERS_FILE (or the database registry now); keeps the registry in force when it fails. */
  reloadPartners(): void;
  /** Re-reads OAUTH_SIGNING_KEY_FILE (key rotation); keeps the keys in force when the file is bad. */
  reloadSigningKeys(): Promise<void>;
  /**
   * Shuts down: /readyz answers 503 and every response says Connection: close at once; the
   * service keeps accepting and serving for SHUTDOWN_READINESS_DELAY_MS; then it stops
   * accepting, lets in-flight requests finish (up to SHUTDOWN_GRACE_MS) and closes every
   * module, last started first, each on its own (docs/decisions.md, "Composition root").
   */
  close(): Promise<void>;
  /** Ends the readiness delay of a close() under way (or about to start): drain at once. */
  drainNow(): void;
}

/**
 * The composition root: each module built from its slice of the settings, in order, a module
 * after what it uses. Teardown runs in reverse: the listeners drain first, Apollo stops once no
 * request can reach it, the audit trail writes what was answered, then queues, state, upstreams.
 */
export async function startServer(config: Config, opts: ServerOptions = {}): Promise<RunningServer> {
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL);
  const clock = opts.clock ?? systemClock;
  const metrics = new PrometheusMetrics();
  const kernel = { logger, clock, metrics };
  const life = new Lifecycle((module, err) => logger.error({ err, module }, 'close failed; closing the other modules'));

  const partners = await life.start('partners', () => createPartners(kernel, config));
  const upstreams = await life.start('upstreams', () => createUpstreams(kernel, config));
  const { store } = await life.start('state', () => createState({ ...kernel, ...(opts.store ? { store: opts.store } : {}) }, config));
  const verification = await life.start('verification', () => createVerification({ ...kernel, hlr: upstreams.hlr, sim: upstreams.sim, store }, config));
  const { service, normalise, formatDate } = verification;
  const oauth = await life.start('oauth', () => createOauth({ ...kernel, registry: partners.registry, throttle: partners.throttle, rateLimiter: store.rateLimiter }, config));
  const tokens = oauth.verifier;
  const subscriptions = await life.start('subscriptions', () => createSubscriptions({
    clock, logger, metrics: new PrometheusWebhookMetrics(metrics.registry), partners: partners.registry, verification: service, tokens,
  }, config));
  const audit = await life.start('audit', () => createAudit({ clock, logger, metrics: metrics.audit }, config));
  const signed = { service, authenticator: partners.authenticator, normalise, formatDate, audit: audit.recorder };
  const legacyRest = await life.start('legacy-rest', () => createLegacyRest(signed, config));
  // The CAMARA APIs: one declaration each (src/partners/camara-apis.ts), built by its folder's factory, in the declarations' order.
  const camaraApi = {
    logger, clock, verification: service, audit: audit.recorder, tokens,
    records: upstreams.crm, quotas: store.quotas, storeMode: () => store.mode(), metrics, subscriptionRoutes: subscriptions.routes,
  };
  const camaraRoutes: Routes = [];
  for (const api of CAMARA_APIS) camaraRoutes.push(...(await life.start(api.name, () => CAMARA_API_FACTORIES[api.root](camaraApi, config))).routes);
  const graphql = await life.start('graphql', () => createGraphql({ ...signed, logger, clock }, config));
  const ops = await life.start('ops', () => createOps({
    registry: metrics.registry, storeMode: () => store.mode(), upstreams: upstreams.states, auditMode: () => audit.writer.mode(), registryState: partners.state,
    events: { service, normalise, subscriptions: subscriptions.service },
  }, config));
  const admin = await life.start('admin', () => createAdmin({
    logger, clock, partners: partners.admin, normalise, upstreams: upstreams.states, storeMode: () => store.mode(),
    auditMode: () => audit.writer.mode(), registryKind: () => partners.state(), subscriptions: subscriptions.service,
  }, config));
  const http = await life.start('http', () => createHttp({
    logger, requestMetrics: metrics,
    routes: withCamaraNotFound(logger, [
      ...legacyRest.routes, ...camaraRoutes, ...oauth.routes, ...graphql.routes,
    ]),
    adminRoutes: ops.adminRoutes, consoleRoutes: admin.routes, onListening: oauth.listeningAt, onShutdown: ops.beginShutdown,
  }, config));

  const issuer = oauth.issuer();
  return {
    url: http.url, port: http.port, metrics, partners: partners.registry, partnerAdmin: partners.admin, registryState: partners.state, accessTokens: tokens, audit: audit.writer,
    reloadPartners: partners.reload, reloadSigningKeys: oauth.reloadKeys, close: () => life.close(), drainNow: http.drainNow,
    ...(http.adminUrl === undefined ? {} : { adminUrl: http.adminUrl, adminPort: http.adminPort }),
    ...(http.consoleUrl === undefined ? {} : { consoleUrl: http.consoleUrl }),
    consoleBanner: http.consoleUrl === undefined ? [] : admin.banner(http.consoleUrl),
    ...(issuer === undefined ? {} : { oauthIssuer: issuer }),
    ...(upstreams.simulator ? { simulator: upstreams.simulator, simulatorUrl: upstreams.simulatorUrl } : {}),
  };
}
