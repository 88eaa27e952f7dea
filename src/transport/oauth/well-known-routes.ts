import { Request, Response, Router } from 'express';
import { JSONWebKeySet } from 'jose';
import { ALL_SCOPES } from '../../domain/access-scopes';
import { TOKEN_PATH } from './token-route';

export const JWKS_PATH = '/.well-known/jwks.json';
export const METADATA_PATH = '/.well-known/oauth-authorization-server';

export interface WellKnownRoutesDeps {
  /** The built-in issuer's identifier (its public base URL); known once the server listens. */
  issuer: () => string;
  /** Public keys in force (the signing key first); read per request, so a reload shows at once. */
  jwks: () => JSONWebKeySet;
}

/** The built-in issuer's public keys (RFC 7517) and authorization server metadata (RFC 8414). */
export function wellKnownRoutes(deps: WellKnownRoutesDeps): Router {
  const metadata = (issuer: string) => ({
    issuer,
    token_endpoint: `${issuer}${TOKEN_PATH}`,
    jwks_uri: `${issuer}${JWKS_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: ALL_SCOPES,
    // Required by RFC 8414 §2; no authorization endpoint, so no response type.
    response_types_supported: [],
  });
  const router = Router();
  router.get(JWKS_PATH, (_req: Request, res: Response) => {
    // Short: after a rotation, clients that cache keys see the new one soon (they also refetch on an unknown kid).
    res.setHeader('Cache-Control', 'public, max-age=60');
    res.json(deps.jwks());
  });
  router.get(METADATA_PATH, (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(metadata(deps.issuer()));
  });
  // As every other route answers a method it does not serve: 405 with Allow, in the OAuth error shape the token endpoint uses.
  router.all([JWKS_PATH, METADATA_PATH], (_req: Request, res: Response) => {
    res.setHeader('Allow', 'GET, HEAD');
    res.locals.code = '11111';
    res.status(405).json({ error: 'invalid_request', error_description: 'use GET' });
  });
  return router;
}
