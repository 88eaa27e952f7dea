import express, { Express } from 'express';
import { Logger } from '../observability/logger';
import { correlator } from './correlator';
import { errorMiddleware, notFound } from '../legacy-rest/error-middleware';
import { CAMARA_OPENAPI_PATH, defaultCamaraOpenapiFile, openapiRoute } from './openapi-route';
import { RequestMetrics, requestLog } from './request-log';
import { Routes } from './routes';
import { securityHeaders } from './security-headers';

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
  app.use(securityHeaders);
  app.use(correlator);
  app.use(requestLog(deps.logger, deps.requestMetrics));
  return app;
}

/** The admin listener's application (ADMIN_PORT): probes, metrics and SIM-management's events only. */
export function createAdminApp(deps: AdminAppDeps): Express {
  const app = baseApp(deps);
  for (const r of deps.adminRoutes) app.use(r);
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
