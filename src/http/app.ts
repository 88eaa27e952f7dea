import express, { Express, RequestHandler } from 'express';
import { consoleRoutes } from '../admin-console/console-routes';
import { Logger } from '../observability/logger';
import { correlator } from './correlator';
import { errorMiddleware, notFound } from './error-middleware';
import { CAMARA_OPENAPI_PATH, defaultCamaraOpenapiFile, openapiRoute } from './openapi-route';
import { RequestMetrics, requestLog } from './request-log';
import { Routes } from './routes';
import { setSecurityHeaders } from './security-headers';

export interface AppDeps {
  logger: Logger;
  requestMetrics: RequestMetrics;
  /** The feature modules' routes, mounted in this order before everything else. */
  routes: Routes;
  /** Probes, /metrics and /internal/events/*: here unless adminElsewhere. */
  adminRoutes: Routes;
  /** Reverse proxies whose X-Forwarded-For is trusted for req.ip (TRUST_PROXY_HOPS); 0 or absent: none. */
  trustProxyHops?: number;
  /**
   * The probes, /metrics and /internal/events/* are served by the admin app on ADMIN_PORT:
   * this app then answers them as any unknown route (CONTRACT §4).
   */
  adminElsewhere?: boolean;
}

export type AdminAppDeps = Pick<AppDeps, 'logger' | 'requestMetrics' | 'adminRoutes'>;

function baseApp(deps: Pick<AppDeps, 'logger' | 'requestMetrics' | 'trustProxyHops'>): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (deps.trustProxyHops) app.set('trust proxy', deps.trustProxyHops);
  app.use(requestEntry(deps));
  return app;
}

/**
 * What every request passes before any route, in this order: the security headers, the
 * correlator (and the log context it opens), the request log. One middleware rather than
 * three `app.use` layers: each router layer a request walks costs it CPU and allocations,
 * and every request walks these (docs/performance.md).
 */
function requestEntry(deps: Pick<AppDeps, 'logger' | 'requestMetrics'>): RequestHandler {
  const log = requestLog(deps.logger, deps.requestMetrics);
  return (req, res, next) => {
    setSecurityHeaders(res);
    correlator(req, res, () => log(req, res, next));
  };
}

/** The admin listener's application (ADMIN_PORT): probes, metrics, SIM-management's events and the console at /admin/. */
export function createAdminApp(deps: AdminAppDeps): Express {
  const app = baseApp(deps);
  for (const r of deps.adminRoutes) app.use(r);
  app.use(consoleRoutes());
  app.use(notFound);
  app.use(errorMiddleware(deps.logger));
  return app;
}

/** Builds the HTTP application without listening: tests and the composition root share it. */
export function createApp(deps: AppDeps): Express {
  const app = baseApp(deps);
  // Partner operations first: they carry the load, and every router passed costs each request.
  for (const r of deps.routes) app.use(r);
  if (!deps.adminElsewhere) for (const r of deps.adminRoutes) app.use(r);
  app.use(openapiRoute());
  app.use(openapiRoute(defaultCamaraOpenapiFile(), CAMARA_OPENAPI_PATH));
  app.use(notFound);
  app.use(errorMiddleware(deps.logger));
  return app;
}
