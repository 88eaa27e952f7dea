import express, { Express, RequestHandler } from 'express';
import { AccessTokenVerifier } from '../oauth/ports/access-tokens';
import { Logger } from '../observability/logger';
import { CamaraRoutesDeps, camaraRoutes } from '../camara/camara-routes';
import { SubscriptionRoutesDeps, subscriptionRoutes } from '../subscriptions/subscription-routes';
import { KycMatchRoutesDeps, kycMatchRoutes } from '../kyc-match/adapters/kyc-match-routes';
import { TokenRouteDeps, tokenRoute } from '../oauth/routes/token-route';
import { WellKnownRoutesDeps, wellKnownRoutes } from '../oauth/routes/well-known-routes';
import { correlator } from './correlator';
import { errorMiddleware, notFound } from '../legacy-rest/error-middleware';
import { EventsRoutesDeps, eventsRoutes } from '../verification/swap-events-routes';
import { CAMARA_OPENAPI_PATH, defaultCamaraOpenapiFile, openapiRoute } from './openapi-route';
import { OpsRoutesDeps, opsRoutes } from '../ops/ops-routes';
import { RequestMetrics, requestLog } from './request-log';
import { securityHeaders } from './security-headers';
import { VerificationRoutesDeps, verificationRoutes } from '../legacy-rest/verification-routes';

export interface AppDeps {
  logger: Logger;
  requestMetrics: RequestMetrics;
  verification: VerificationRoutesDeps;
  events: EventsRoutesDeps;
  ops: OpsRoutesDeps;
  /** Verifies `Authorization: Bearer` access tokens for the CAMARA routes (CONTRACT §7). */
  accessTokens: AccessTokenVerifier;
  /** The built-in OAuth 2.0 issuer's routes; absent when OAUTH_BUILTIN=false. */
  oauth?: { token: TokenRouteDeps; wellKnown: WellKnownRoutesDeps };
  /** The CAMARA operations (CONTRACT §7), their tokens verified by accessTokens; absent: not served. */
  camara?: Omit<CamaraRoutesDeps, 'tokens'>;
  /** KYC Match (CONTRACT §11); absent: not served. */
  kycMatch?: Omit<KycMatchRoutesDeps, 'tokens'>;
  /** SIM Swap Subscriptions (CONTRACT §8); absent: not served. */
  subscriptions?: Omit<SubscriptionRoutesDeps, 'tokens'>;
  /** Extra handlers mounted before the 404 (GraphQL). */
  extra?: RequestHandler[];
  /** Reverse proxies whose X-Forwarded-For is trusted for req.ip (TRUST_PROXY_HOPS); 0 or absent: none. */
  trustProxyHops?: number;
  /**
   * The probes, /metrics and /internal/events/* are served by the admin app on ADMIN_PORT:
   * this app then answers them as any unknown route (CONTRACT §4).
   */
  adminElsewhere?: boolean;
}

export type AdminAppDeps = Pick<AppDeps, 'logger' | 'requestMetrics' | 'ops' | 'events'>;

/** The admin listener's application (ADMIN_PORT): probes, metrics and SIM-management's events only. */
export function createAdminApp(deps: AdminAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(securityHeaders);
  app.use(correlator);
  app.use(requestLog(deps.logger, deps.requestMetrics));
  app.use(opsRoutes(deps.ops));
  app.use(eventsRoutes(deps.events));
  app.use(notFound);
  app.use(errorMiddleware(deps.logger));
  return app;
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
  if (deps.camara) app.use(camaraRoutes({ ...deps.camara, tokens: deps.accessTokens }));
  if (deps.kycMatch) app.use(kycMatchRoutes({ ...deps.kycMatch, tokens: deps.accessTokens }));
  if (deps.subscriptions) app.use(subscriptionRoutes({ ...deps.subscriptions, tokens: deps.accessTokens }));
  if (!deps.adminElsewhere) app.use(opsRoutes(deps.ops));
  app.use(openapiRoute());
  app.use(openapiRoute(defaultCamaraOpenapiFile(), CAMARA_OPENAPI_PATH));
  if (!deps.adminElsewhere) app.use(eventsRoutes(deps.events));
  if (deps.oauth) {
    app.use(tokenRoute(deps.oauth.token));
    app.use(wellKnownRoutes(deps.oauth.wellKnown));
  }
  for (const h of deps.extra ?? []) app.use(h);
  app.use(notFound);
  app.use(errorMiddleware(deps.logger));
  return app;
}
