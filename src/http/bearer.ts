import { createHash, timingSafeEqual } from 'node:crypto';
import { UnauthenticatedError } from '../errors/domain-errors';

// RFC 6750 §2.1: `Bearer` then a token68; RFC 9110 §11.1: the scheme is case-insensitive.
const BEARER = /^bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

/** The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1), or undefined when there is none. */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (typeof authorization !== 'string') return undefined;
  const m = BEARER.exec(authorization);
  return m ? m[1] : undefined;
}

/** The bearer token of a request, or UnauthenticatedError (CAMARA 401 UNAUTHENTICATED) when there is none. */
export function requireBearerToken(authorization: string | undefined): string {
  const token = bearerToken(authorization);
  if (token === undefined) {
    throw new UnauthenticatedError(authorization === undefined ? 'access token missing' : 'Authorization is not a Bearer token');
  }
  return token;
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * A check of the Authorization header against one expected token, in constant time: both sides
 * are hashed first, so the comparison takes the same time whatever the length of what was sent.
 */
export function bearerTokenCheck(expected: string): (authorization: string | undefined) => boolean {
  const want = digest(expected);
  return (authorization) => {
    const token = bearerToken(authorization);
    // An absent token is still hashed and compared, so its answer takes no less time.
    return timingSafeEqual(digest(token ?? ''), want) && token !== undefined;
  };
}
