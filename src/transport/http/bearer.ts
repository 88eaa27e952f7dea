import { createHash, timingSafeEqual } from 'node:crypto';

// RFC 9110 §11.1: the scheme is case-insensitive; one or more spaces separate it from the token.
const BEARER = /^bearer +(\S.*)$/i;

/** The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1), or undefined when there is none. */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (typeof authorization !== 'string') return undefined;
  const m = BEARER.exec(authorization);
  return m ? m[1] : undefined;
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
