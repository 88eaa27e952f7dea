import { UnauthenticatedError } from '../../domain/errors';

/** `Bearer <token68>` (RFC 6750 §2.1); the scheme name is case-insensitive (RFC 9110 §11.1). */
const BEARER = /^bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

/** The token of an `Authorization: Bearer …` header; undefined when absent, another scheme, or malformed. */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  return BEARER.exec(authorization)?.[1];
}

/** The bearer token of a request, or UnauthenticatedError (CAMARA 401 UNAUTHENTICATED) when there is none. */
export function requireBearerToken(authorization: string | undefined): string {
  const token = bearerToken(authorization);
  if (token === undefined) {
    throw new UnauthenticatedError(authorization === undefined ? 'access token missing' : 'Authorization is not a Bearer token');
  }
  return token;
}
