import express, { Express, RequestHandler } from 'express';
import { Logger } from './observability/logger';
import { correlator } from './transport/rest/correlator';
import { errorMiddleware, notFound } from './transport/rest/error-middleware';
import { EventsRoutesDeps, eventsRoutes } from './transport/rest/events-routes';
import { openapiRoute } from './transport/rest/openapi-route';
import { OpsRoutesDeps, opsRoutes } from './transport/rest/ops-routes';
import { RequestMetrics, requestLog } from './transport/rest/request-log';
import { securityHeaders } from './transport/rest/security-headers';
import { VerificationRoutesDeps, verificationRoutes } from './transport/rest/verification-routes';

export interface AppDeps {
  logger: Logger;
  requestMetrics: RequestMetrics;
  verification: VerificationRoutesDeps;
  events: EventsRoutesDeps;
  ops: OpsRoutesDeps;
  /** Extra handlers mounted before the 404 (GraphQL). */
  extra?: RequestHandler[];
  /** Reverse proxies whose X-Forwarded-For is trusted for req.ip (TRUST_PROXY_HOPS); 0 or absent: none. */
  trustProxyHops?: number;
}

/** Builds the HTTP application without listening: tests and the composition root share it. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (deps.trustProxyHops) app.set('trust proxy', deps.trustProxyHops);
  app.use(securityHeaders);
  app.use(correlator);
  app.use(requestLog(deps.logger, deps.requestMetrics));
  // Partner operations first: they carry the load, and every router passed costs each request.
  app.use(verificationRoutes(deps.verification));
  app.use(opsRoutes(deps.ops));
  app.use(openapiRoute());
  app.use(eventsRoutes(deps.events));
  for (const h of deps.extra ?? []) app.use(h);
  app.use(notFound);
  app.use(errorMiddleware(deps.logger));
  return app;
}
