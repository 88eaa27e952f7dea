import http from 'node:http';
import { createAdminApp, createApp } from './http/app';
import { createAccessTokens } from './oauth/adapters/create-access-tokens';
import { FilePartnerRegistry } from './partners/file-partner-registry';
import { AuditWriter, createAuditWriter } from './audit/adapters/create-audit-writer';
import { createStateStore } from './verification/state/create-state-store';
import { createSubscriptionAdapters } from './subscriptions/delivery/create-subscriptions';
import { SubscriptionService } from './subscriptions/domain/subscription-service';
import { PrometheusWebhookMetrics } from './observability/webhook-metrics';
import { HlrHttpClient } from './verification/upstream/hlr-http-client';
import { breakerOptionsOf } from './verification/upstream/breaker-options';
import { SimHttpClient } from './verification/upstream/sim-http-client';
import { Config, readinessDelayMs } from './config/config';
import { AuditRecorder } from './audit/audit-recorder';
import { AuthFailureThrottle } from './oauth/auth-failure-throttle';
import { Authenticator } from './partners/authenticator';
import { ClientCredentialsGrant } from './oauth/client-credentials-grant';
import { createMsisdnNormaliser } from './verification/msisdn';
import { createOffsetDateTimeFormatter } from './kernel/offset-date-time';
import { AccessTokenVerifier } from './oauth/ports/access-tokens';
import { Clock, systemClock } from './kernel/clock';
import { StateStore } from './verification/ports/state-store';
import { VerificationService } from './verification/verification-service';
import { CamaraService } from './camara/camara-service';
import { createKycMatch } from './kyc-match/adapters/create-kyc-match';
import { createZonedCalendar } from './kernel/zoned-date';
import { Logger, createLogger } from './observability/logger';
import { createHttpServer, listen, shownHost as reachableHost } from './http/http-listener';
import { prepareShutdown } from './http/http-shutdown';
import { PrometheusMetrics } from './observability/prometheus-metrics';
import { defaultPartnersPath } from './kernel/repo-paths';
import { loadFixtures, defaultFixturesPath } from './simulator/fixtures';
import { Simulator, createSimulator } from './simulator/simulator';
import { createGraphqlMiddleware } from './graphql/graphql-middleware';

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
  metrics: PrometheusMetrics;
  partners: FilePartnerRegistry;
  /** Verifies CAMARA bearer tokens (built-in and external issuer). */
  accessTokens: AccessTokenVerifier;
  /** The built-in OAuth issuer's identifier (PUBLIC_URL or the listening address); undefined when OAUTH_BUILTIN=false. */
  oauthIssuer?: string;
  /** The audit trail's writer (tests flush it). */
  audit: AuditWriter;
  /** The in-process simulator when no upstream URLs were configured. */
  simulator?: Simulator;
  simulatorUrl?: string;
  /** Re-reads PARTNERS_FILE; keeps the registry in force when the file is bad. */
  reloadPartners(): void;
  /** Re-reads OAUTH_SIGNING_KEY_FILE (key rotation); keeps the keys in force when the file is bad. */
  reloadSigningKeys(): Promise<void>;
  /**
   * Shuts down: /readyz answers 503 and every response says Connection: close at once; the
   * service keeps accepting and serving for SHUTDOWN_READINESS_DELAY_MS; then it stops
   * accepting, lets in-flight requests finish (up to SHUTDOWN_GRACE_MS) and closes everything.
   */
  close(): Promise<void>;
  /** Ends the readiness delay of a close() under way (or about to start): drain at once. */
  drainNow(): void;
}

/** The composition root: builds every adapter from config, hands them to the service, listens. */
export async function startServer(config: Config, opts: ServerOptions = {}): Promise<RunningServer> {
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL);
  const clock = opts.clock ?? systemClock;
  const metrics = new PrometheusMetrics();

  let simulator: Simulator | undefined;
  let hlrUrl = config.HLR_URL;
  let simUrl = config.SIM_URL;
  let simulatorUrl: string | undefined;
  if (!hlrUrl || !simUrl) {
    simulator = createSimulator({ subscribers: loadFixtures(defaultFixturesPath()), synthetic: false });
    simulatorUrl = await simulator.listen(0, '127.0.0.1');
    hlrUrl = `${simulatorUrl}/hlr`;
    simUrl = `${simulatorUrl}/sim`;
    logger.info({ simulatorUrl }, 'no HLR_URL/SIM_URL: upstream simulator running in-process on the demo fixture');
  }
  const crmUrl = config.CRM_URL ?? (simulatorUrl === undefined ? undefined : `${simulatorUrl}/crm`);

  const store = opts.store ?? createStateStore(config, { clock, logger, metrics });
  metrics.trackStoreMode(() => store.mode());
  const partners = new FilePartnerRegistry(config.PARTNERS_FILE ?? defaultPartnersPath());

  const breaker = breakerOptionsOf(config);
  const onBreakerChange = (upstream: string, state: string, lastFailure?: object) => logger.warn({ upstream, state, lastFailure }, 'circuit breaker changed state');
  const hlr = new HlrHttpClient({ baseUrl: hlrUrl, timeoutMs: config.HLR_TIMEOUT_MS, maxSockets: config.UPSTREAM_MAX_SOCKETS, breaker, metrics, onBreakerChange, logger });
  const sim = new SimHttpClient({ baseUrl: simUrl, timeoutMs: config.SIM_TIMEOUT_MS, maxSockets: config.UPSTREAM_MAX_SOCKETS, breaker, metrics, onBreakerChange, logger });

  const service = new VerificationService({
    hlr, sim, store, clock, metrics,
    settings: {
      kycCacheTtlS: config.KYC_CACHE_TTL_S,
      kycStaleS: config.KYC_STALE_S,
      simSwapCacheTtlS: config.SIM_SWAP_CACHE_TTL_S,
      negativeCacheTtlS: config.NEGATIVE_CACHE_TTL_S,
      simSwapMaxAgeHours: config.SIM_SWAP_MAX_AGE_HOURS,
      txnTtlS: config.TXN_TTL_S,
      txnInFlightTtlS: config.TXN_IN_FLIGHT_TTL_S,
      txnRecordBeforeAnswer: config.REDIS_WAIT_REPLICAS > 0,
    },
    onStoreError: (err) => logger.warn({ err }, 'state store error; answering without it'),
  });
  const audit = createAuditWriter(config, { logger, clock, metrics: metrics.audit });
  await audit.start();
  const auditRecorder = new AuditRecorder({ trail: audit, clock, failClosed: config.AUDIT_FAIL_CLOSED });
  const throttle = new AuthFailureThrottle({
    clock, pairLimit: config.AUTH_FAIL_LIMIT, addressLimit: config.AUTH_FAIL_ADDRESS_LIMIT, windowS: config.AUTH_FAIL_WINDOW_S,
  });
  const authenticator = new Authenticator({ registry: partners, clock, maxSkewS: config.SIG_MAX_SKEW_S, metrics, throttle });
  authenticator.tick();
  // The built-in issuer's identifier: PUBLIC_URL, else the listening address (known below, before any request).
  let publicUrl = config.PUBLIC_URL ?? '';
  const oauth = await createAccessTokens(config, { registry: partners, clock, logger, publicUrl: () => publicUrl });
  const ticker = setInterval(() => authenticator.tick(), 1000);
  ticker.unref();

  let shuttingDown = false;
  const normalise = createMsisdnNormaliser({ countryCode: config.COUNTRY_CODE, nsnLength: config.NSN_LENGTH });
  const formatDate = createOffsetDateTimeFormatter(config.TIMEZONE);
  const server = createHttpServer(config);
  // First on 'request', before the app can write a response: it decides Connection: close.
  const shutdown = prepareShutdown(server);
  // ADMIN_PORT: probes, metrics and events on a listener of their own, which a NetworkPolicy
  // can keep away from the partners' ingress (CONTRACT §4).
  const adminServer = config.ADMIN_PORT === undefined ? undefined : createHttpServer(config);
  const adminShutdown = adminServer && prepareShutdown(adminServer);
  const graphql = await createGraphqlMiddleware({
    service, authenticator, normalise, formatDate, logger,
    introspection: config.GRAPHQL_INTROSPECTION, bodyLimitBytes: config.BODY_LIMIT_BYTES,
    audit: auditRecorder,
  });
  const camara = new CamaraService({
    verification: service, clock, audit: auditRecorder,
    settings: {
      plan: { countryCode: config.COUNTRY_CODE, nsnLength: config.NSN_LENGTH },
      calendar: createZonedCalendar(config.TIMEZONE),
      ...(config.SIM_SWAP_MONITORED_DAYS === undefined ? {} : { monitoredDays: config.SIM_SWAP_MONITORED_DAYS }),
    },
  });
  const kycMatch = createKycMatch(config, { crmUrl, verification: service, store, audit: auditRecorder, metrics, clock, logger, breaker, onBreakerChange });
  const subs = createSubscriptionAdapters(config, { logger, metrics: new PrometheusWebhookMetrics(metrics.registry), partners });
  const subscriptions = new SubscriptionService({
    store: subs.store, delivery: subs.delivery, clock,
    sinks: subs.sinks,
    plan: { countryCode: config.COUNTRY_CODE, nsnLength: config.NSN_LENGTH },
    // Subscriptions are the sim_swap operation's: the same permission and rate limit as its lookups.
    admit: (partner) => service.admit(partner, ['sim_swap']),
    maxPerPartner: config.SUBSCRIPTIONS_MAX_PER_PARTNER,
  });
  const sweeper = setInterval(() => {
    subscriptions.sweepExpired().catch((err: unknown) => logger.warn({ err }, 'subscription expiry sweep failed; next sweep retries'));
  }, config.SUBSCRIPTION_SWEEP_MS);
  sweeper.unref();
  const events = { service, normalise, token: config.EVENTS_TOKEN, bodyLimitBytes: config.BODY_LIMIT_BYTES, subscriptions };
  const ops = {
    registry: metrics.registry,
    storeMode: () => store.mode(),
    upstreams: () => ({ hlr: hlr.upstream.state(), sim: sim.upstream.state(), ...(crmUrl === undefined ? {} : { crm: kycMatch.crmState() }) }),
    isShuttingDown: () => shuttingDown,
    auditMode: () => audit.mode(),
  };
  const app = createApp({
    logger,
    requestMetrics: metrics,
    verification: { service, authenticator, normalise, formatDate, bodyLimitBytes: config.BODY_LIMIT_BYTES, audit: auditRecorder },
    events,
    camara: { camara, formatDate, bodyLimitBytes: config.BODY_LIMIT_BYTES, logger },
    kycMatch: { kycMatch: kycMatch.service, bodyLimitBytes: config.BODY_LIMIT_BYTES, logger },
    subscriptions: { subscriptions, bodyLimitBytes: config.BODY_LIMIT_BYTES, logger },
    accessTokens: oauth.verifier,
    ...(oauth.builtin ? {
      oauth: {
        token: { grant: new ClientCredentialsGrant({ registry: partners, signer: oauth.builtin, throttle, metrics, rateLimiter: store.rateLimiter }), bodyLimitBytes: config.BODY_LIMIT_BYTES, logger },
        wellKnown: { issuer: () => publicUrl, jwks: () => oauth.builtin!.jwks() },
      },
    } : {}),
    ops,
    extra: [graphql.handler],
    trustProxyHops: config.TRUST_PROXY_HOPS,
    adminElsewhere: adminServer !== undefined,
  });
  adminServer?.on('request', createAdminApp({ logger, requestMetrics: metrics, ops, events }));

  server.on('request', app);
  // Expect: 100-continue: the app answers, and the body parser sends 100 Continue only once the
  // request is authenticated and its declared size accepted (src/http/expect-continue.ts).
  server.on('checkContinue', (req: http.IncomingMessage, res: http.ServerResponse) => server.emit('request', req, res));
  // Listen only once shared state is reached (bounded): a balancer must not send a fleet
  // instance traffic it would answer from its own memory (docs/fleet.md).
  if (store.whenSettled) {
    const mode = await store.whenSettled(Math.max(2000, 4 * config.REDIS_COMMAND_TIMEOUT_MS));
    if (mode === 'degraded') logger.warn('Redis not reached at start: serving degraded until it answers');
  }
  const port = await listen(server, config.PORT, config.HOST);
  const shownHost = reachableHost(config.HOST);
  publicUrl ||= `http://${shownHost}:${port}`;
  // After the partners' port: a probe that passes means the partners' port is open.
  let adminUrl: string | undefined;
  let adminPort: number | undefined;
  if (adminServer) {
    const adminHost = config.ADMIN_HOST ?? config.HOST;
    try {
      adminPort = await listen(adminServer, config.ADMIN_PORT ?? 0, adminHost);
    } catch (err) {
      server.close();
      throw new Error(`ADMIN_PORT ${config.ADMIN_PORT} on ${adminHost}: ${(err as Error).message}`, { cause: err });
    }
    adminUrl = `http://${reachableHost(adminHost)}:${adminPort}`;
  }

  let closing: Promise<void> | undefined;
  let delaySkipped = false;
  let endDelay: (() => void) | undefined;
  const close = () => (closing ??= (async () => {
    // Not ready at once, while still serving: a balancer needs a few seconds to stop sending
    // here, and until then new connections must still be accepted (CONTRACT §10).
    shuttingDown = true;
    shutdown.announce();
    const delayMs = readinessDelayMs(config);
    if (delayMs > 0 && !delaySkipped) {
      logger.info({ delayMs }, 'shutting down: /readyz answers 503; still serving until the readiness delay ends');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delayMs);
        endDelay = () => { clearTimeout(timer); resolve(); };
      });
    }
    logger.info({ graceMs: config.SHUTDOWN_GRACE_MS }, 'shutting down: closing the listener, finishing in-flight requests');
    await shutdown.drain(config.SHUTDOWN_GRACE_MS);
    // The admin listener last: until the partners' requests are done, /readyz keeps saying
    // shutting_down and /metrics keeps being scraped. Its own requests are short.
    adminShutdown?.announce();
    await adminShutdown?.drain(config.SHUTDOWN_GRACE_MS);
    // Apollo is stopped only once no request can reach it.
    await graphql.stop();
    await audit.close(); // every answered request is in the buffer by now: write it before exit
    clearInterval(ticker);
    hlr.upstream.shutdown();
    sim.upstream.shutdown();
    kycMatch.shutdown();
    clearInterval(sweeper);
    await subs.close();
    await store.close();
    await simulator?.close();
  })());

  const running: RunningServer = {
    url: `http://${shownHost}:${port}`,
    port,
    metrics,
    partners,
    accessTokens: oauth.verifier,
    reloadSigningKeys: async () => {
      try {
        const n = await oauth.reloadKeys();
        if (oauth.builtin) logger.info({ keys: n, signingKid: oauth.builtin.signingKid }, 'signing keys reloaded');
      } catch (err) {
        logger.error({ err: (err as Error).message }, 'signing keys reload failed; keeping the keys in force');
      }
    },
    audit,
    reloadPartners: () => {
      try {
        const n = partners.reload();
        logger.info({ partners: n }, 'partners reloaded');
      } catch (err) {
        logger.error({ err: (err as Error).message }, 'partners reload failed; keeping the registry in force');
      }
    },
    close,
    drainNow: () => {
      delaySkipped = true;
      endDelay?.();
    },
  };
  if (adminUrl !== undefined) {
    running.adminUrl = adminUrl;
    running.adminPort = adminPort;
  }
  if (oauth.builtin) running.oauthIssuer = publicUrl;
  if (simulator) {
    running.simulator = simulator;
    running.simulatorUrl = simulatorUrl;
  }
  return running;
}
