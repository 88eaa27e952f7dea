import { Request, Response, Router } from 'express';
import { JSONWebKeySet } from 'jose';
import { ALL_SCOPES } from '../access-scopes';
import { TOKEN_PATH } from './token-route';

export const JWKS_PATH = '/.well-known/jwks.json';
export const METADATA_PATH = '/.well-known/oauth-authorization-server';
/** OpenID Connect Discovery 1.0: where every CAMARA spec's `openIdConnect` scheme points clients. */
export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';

export interface WellKnownRoutesDeps {
  /** The built-in issuer's identifier (its public base URL); known once the server listens. */
  issuer: () => string;
  /** Public keys in force (the signing key first); read per request, so a reload shows at once. */
  jwks: () => JSONWebKeySet;
}

/**
 * The built-in issuer's public keys (RFC 7517) and its metadata, one document served at both
 * RFC 8414's and OpenID Connect Discovery's addresses, so the two can never disagree.
 */
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
    // OpenID Connect Discovery §3 requires these two. No ID token is ever minted; the algorithms
    // are those the access tokens are signed with (the keys at jwks_uri), the subject the client.
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: algorithmsOf(deps.jwks()),
  });
  const router = Router();
  router.get(JWKS_PATH, (_req: Request, res: Response) => {
    // Short: after a rotation, clients that cache keys see the new one soon (they also refetch on an unknown kid).
    res.setHeader('Cache-Control', 'public, max-age=60');
    res.json(deps.jwks());
  });
  router.get([METADATA_PATH, OPENID_CONFIGURATION_PATH], (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(metadata(deps.issuer()));
  });
  // As every other route answers a method it does not serve: 405 with Allow, in the OAuth error shape the token endpoint uses.
  router.all([JWKS_PATH, METADATA_PATH, OPENID_CONFIGURATION_PATH], (_req: Request, res: Response) => {
    res.setHeader('Allow', 'GET, HEAD');
    res.locals.code = '11111';
    res.status(405).json({ error: 'invalid_request', error_description: 'use GET' });
  });
  return router;
}

/** The signing algorithms of the keys in force, each once, the signing key's first. */
function algorithmsOf(jwks: JSONWebKeySet): string[] {
  return [...new Set(jwks.keys.map((k) => k.alg).filter((a): a is string => typeof a === 'string'))];
}
