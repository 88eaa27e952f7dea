import { bearerFailureOf } from '../errors/error-lookup';
import { bearerToken } from './bearer';

const REALM = 'verify-customer';

/** RFC 6750 §3: error_description and scope are quoted-strings without `"` or `\`. */
function quoted(s: string): string {
  return `"${s.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '')}"`;
}

/**
 * The `WWW-Authenticate: Bearer` challenge (RFC 6750 §3) of a protected resource's failure,
 * or undefined when the failure is not about the access token (its catalog row has no
 * `bearer` column):
 * - 401 without any bearer token (no Authorization, or another scheme): the bare challenge,
 *   with no error code, as §3.1 asks when the client sent no authentication;
 * - 401 with a token: `error="invalid_token"` and the reason;
 * - 403 for a missing scope: `error="insufficient_scope"` and the scopes that would do.
 */
export function bearerChallenge(err: unknown, authorization: string | undefined): string | undefined {
  const failure = bearerFailureOf(err);
  if (failure === undefined) return undefined;
  if (failure.error === 'invalid_token' && bearerToken(authorization) === undefined) return `Bearer realm="${REALM}"`;
  const scope = failure.scopes === undefined ? '' : `, scope=${quoted(failure.scopes.join(' '))}`;
  return `Bearer realm="${REALM}", error="${failure.error}", error_description=${quoted(failure.reason)}${scope}`;
}
