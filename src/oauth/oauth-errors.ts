import { ForbiddenError, domainError } from '../errors/domain-errors';

/**
 * Conditions of the OAuth 2.0 token endpoint (RFC 6749 §5.2). A malformed request is the
 * domain's BadRequestError (`invalid_request`); these are the token endpoint's own.
 */

/** Client authentication failed: unknown client, wrong secret, disabled partner, none given. */
export class InvalidClientError extends domainError('INVALID_CLIENT') {}

/** A requested scope is unknown, malformed, or beyond what the partner may hold. */
export class InvalidScopeError extends domainError('INVALID_SCOPE') {}

/** A grant type other than client_credentials. */
export class UnsupportedGrantTypeError extends domainError('UNSUPPORTED_GRANT_TYPE') {}

/**
 * The access token is valid but holds none of the scopes the operation needs (RFC 6750 §3.1
 * `insufficient_scope`): a 403 whose transport names the scopes that would do.
 */
export class InsufficientScopeError extends ForbiddenError {
  override readonly kind = 'INSUFFICIENT_SCOPE';

  constructor(reason: string, readonly scopes: readonly string[]) {
    super(reason);
  }
}
