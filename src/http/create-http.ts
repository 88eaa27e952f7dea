import http from 'node:http';
import { AdminSettings } from '../config/admin-settings';
import { ServerSettings, readinessDelayMs } from '../config/server-settings';
import { Logger } from '../observability/logger';
import { createAdminApp, createApp } from './app';
import { createHttpServer, listen, shownHost } from './http-listener';
import { prepareShutdown } from './http-shutdown';
import { RequestMetrics } from './request-log';
import { Routes } from './routes';

export interface HttpDeps {
  logger: Logger;
  requestMetrics: RequestMetrics;
  /** The feature modules' routes on the partners' port, in order. */
  routes: Routes;
  /** Probes, metrics, events: on ADMIN_PORT when set, else on the partners' port. */
  adminRoutes: Routes;
  /**
   * The admin API and console (CONTRACT §12): never on the partners' port. On ADMIN_PORT when
   * set; else, outside production, on a loopback-only listener of their own (ADMIN_CONSOLE_PORT).
   */
  consoleRoutes?: Routes;
  /** Told of the partners' address once it listens, before any request is served. */
  onListening(url: string): void;
  /** Called first on close, while the listeners still serve: /readyz starts answering 503. */
  onShutdown(): void;
}

export interface HttpListeners {
  url: string;
  port: number;
  adminUrl?: string;
  adminPort?: number;
  /** Where the admin API and console answer (ADMIN_PORT's listener or the loopback console listener); undefined: off. */
  consoleUrl?: string;
  /** Ends the readiness delay of a close() under way (or about to start): drain at once. */
  drainNow: () => void;
  /**
   * Says Connection: close on every response at once and keeps serving for the readiness
   * delay; then stops accepting and lets in-flight requests finish (up to SHUTDOWN_GRACE_MS).
   */
  close(): Promise<void>;
}

/** The partners' listener and, with ADMIN_PORT, the admin one (CONTRACT §4, §10). */
export async function createHttp(deps: HttpDeps, config: ServerSettings & Pick<AdminSettings, 'ADMIN_CONSOLE_PORT'>): Promise<HttpListeners> {
  const { logger } = deps;
  let closing: Promise<void> | undefined;
  let delaySkipped = false;
  let endDelay: (() => void) | undefined;
  const server = createHttpServer(config);
  // First on 'request', before the app can write a response: it decides Connection: close.
  const shutdown = prepareShutdown(server);
  // ADMIN_PORT: probes, metrics and events on a listener of their own, which a NetworkPolicy
  // can keep away from the partners' ingress (CONTRACT §4).
  const adminServer = config.ADMIN_PORT === undefined ? undefined : createHttpServer(config);
  const adminShutdown = adminServer && prepareShutdown(adminServer);
  const { routes, adminRoutes, requestMetrics, consoleRoutes = [] } = deps;
  // No ADMIN_PORT, outside production: the console on loopback only, so `npm start` shows it and nothing else can reach it.
  const consoleServer = adminServer === undefined && consoleRoutes.length > 0 && config.NODE_ENV !== 'production' ? createHttpServer(config) : undefined;
  const consoleShutdown = consoleServer && prepareShutdown(consoleServer);
  server.on('request', createApp({ logger, requestMetrics, routes, adminRoutes, trustProxyHops: config.TRUST_PROXY_HOPS, adminElsewhere: adminServer !== undefined }));
  adminServer?.on('request', createAdminApp({ logger, requestMetrics, adminRoutes: [...adminRoutes, ...consoleRoutes] }));
  consoleServer?.on('request', createAdminApp({ logger, requestMetrics, adminRoutes: consoleRoutes }));
  // Expect: 100-continue: the app answers, and the body parser sends 100 Continue only once the
  // request is authenticated and its declared size accepted (src/http/expect-continue.ts).
  server.on('checkContinue', (req: http.IncomingMessage, res: http.ServerResponse) => server.emit('request', req, res));

  const port = await listen(server, config.PORT, config.HOST);
  const url = `http://${shownHost(config.HOST)}:${port}`;
  deps.onListening(url);
  const listeners: HttpListeners = { url, port, drainNow: () => { delaySkipped = true; endDelay?.(); }, close: () => (closing ??= close()) };
  // After the partners' port: a probe that passes means the partners' port is open.
  if (adminServer) {
    const adminHost = config.ADMIN_HOST ?? config.HOST;
    try {
      listeners.adminPort = await listen(adminServer, config.ADMIN_PORT ?? 0, adminHost);
    } catch (err) {
      server.close();
      throw new Error(`ADMIN_PORT ${config.ADMIN_PORT} on ${adminHost}: ${(err as Error).message}`, { cause: err });
    }
    listeners.adminUrl = `http://${shownHost(adminHost)}:${listeners.adminPort}`;
    if (consoleRoutes.length > 0) listeners.consoleUrl = listeners.adminUrl;
  } else if (consoleServer) {
    try {
      listeners.consoleUrl = `http://127.0.0.1:${await listen(consoleServer, config.ADMIN_CONSOLE_PORT, '127.0.0.1')}`;
    } catch (err) {
      // The partners' port is the service; a console port taken (a second instance on one machine) only costs the console.
      logger.warn({ port: config.ADMIN_CONSOLE_PORT, reason: (err as Error).message }, 'console not started: ADMIN_CONSOLE_PORT cannot be listened on');
    }
  } else if (consoleRoutes.length > 0) {
    logger.info('admin API and console off: production without ADMIN_PORT (set ADMIN_PORT to serve them on the admin listener)');
  }

  async function close(): Promise<void> {
    // Not ready at once, while still serving: a balancer needs a few seconds to stop sending
    // here, and until then new connections must still be accepted (CONTRACT §10).
    deps.onShutdown();
    shutdown.announce();
    const delayMs = readinessDelayMs(config);
    if (delayMs > 0 && !delaySkipped) {
      logger.info({ delayMs }, 'shutting down: /readyz answers 503; still serving until the readiness delay ends');
      await new Promise<void>((resolve) => {
        // Node's timers keep a millisecond clock of their own and may fire up to 1 ms before
        // the wall clock says the delay is over; the delay promised to the balancer is measured
        // by the wall clock (the log's timestamps), so an early wake waits out the remainder.
        const until = Date.now() + delayMs;
        let timer: NodeJS.Timeout;
        const wake = () => {
          const left = until - Date.now();
          if (left > 0) timer = setTimeout(wake, left);
          else resolve();
        };
        timer = setTimeout(wake, delayMs);
        endDelay = () => { clearTimeout(timer); resolve(); };
      });
    }
    logger.info({ graceMs: config.SHUTDOWN_GRACE_MS }, 'shutting down: closing the listener, finishing in-flight requests');
    await shutdown.drain(config.SHUTDOWN_GRACE_MS);
    // The admin listener last: until the partners' requests are done, /readyz keeps saying
    // shutting_down and /metrics keeps being scraped. Its own requests are short.
    adminShutdown?.announce();
    consoleShutdown?.announce();
    await Promise.all([adminShutdown?.drain(config.SHUTDOWN_GRACE_MS), consoleShutdown?.drain(config.SHUTDOWN_GRACE_MS)]);
  }
  return listeners;
}
