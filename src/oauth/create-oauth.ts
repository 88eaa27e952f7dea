import { Routes } from '../http/routes';
import { OauthSettings } from '../config/oauth-settings';
import { ServerSettings } from '../config/server-settings';
import { Clock } from '../kernel/clock';
import { Logger } from '../observability/logger';
import { PartnerRegistry } from '../partners/partners';
import { Metrics } from '../verification/ports/metrics';
import { RateLimiter } from '../verification/ports/state-store';
import { JwtAccessTokenVerifier } from './adapters/jwt-access-token-verifier';
import { createAccessTokens } from './adapters/create-access-tokens';
import { AuthFailureThrottle } from '../partners/auth-failure-throttle';
import { ClientCredentialsGrant } from './client-credentials-grant';
import { tokenRoute } from './routes/token-route';
import { wellKnownRoutes } from './routes/well-known-routes';

export interface OauthDeps {
  registry: PartnerRegistry;
  throttle: AuthFailureThrottle;
  /** The partners' rate limiter: a token request is charged like any other request. */
  rateLimiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
}

export interface Oauth {
  /** Verifies CAMARA bearer tokens (built-in and external issuer). */
  verifier: JwtAccessTokenVerifier;
  /** The built-in issuer's identifier; undefined when OAUTH_BUILTIN=false. */
  issuer(): string | undefined;
  /** The listening address, the built-in issuer's identifier when PUBLIC_URL is unset; told before any request is served. */
  listeningAt: (url: string) => void;
  /** Re-reads OAUTH_SIGNING_KEY_FILE (key rotation); keeps the keys in force when the file is bad. */
  reloadKeys: () => Promise<void>;
  /** The built-in issuer's token endpoint and metadata; none when OAUTH_BUILTIN=false. */
  routes: Routes;
}

/** CAMARA's OAuth 2.0: the built-in issuer's routes and the verifier of every issuer trusted. */
export async function createOauth(deps: OauthDeps, config: OauthSettings & Pick<ServerSettings, 'BODY_LIMIT_BYTES'>): Promise<Oauth> {
  const { registry, clock, logger } = deps;
  let publicUrl = config.PUBLIC_URL ?? '';
  const tokens = await createAccessTokens(config, { registry, clock, logger, publicUrl: () => publicUrl });
  const { builtin } = tokens;
  const routes = builtin ? [
    tokenRoute({
      grant: new ClientCredentialsGrant({ registry, signer: builtin, clock, throttle: deps.throttle, metrics: deps.metrics, rateLimiter: deps.rateLimiter }),
      bodyLimitBytes: config.BODY_LIMIT_BYTES, logger,
    }),
    wellKnownRoutes({ issuer: () => publicUrl, jwks: () => builtin.jwks() }),
  ] : [];
  return {
    verifier: tokens.verifier,
    routes,
    issuer: () => (builtin ? publicUrl : undefined),
    listeningAt: (url) => { publicUrl ||= url; },
    reloadKeys: async () => {
      try {
        const n = await tokens.reloadKeys();
        if (builtin) logger.info({ keys: n, signingKid: builtin.signingKid }, 'signing keys reloaded');
      } catch (err) {
        logger.error({ err: (err as Error).message }, 'signing keys reload failed; keeping the keys in force');
      }
    },
  };
}
