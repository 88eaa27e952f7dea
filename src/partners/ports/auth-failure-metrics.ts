/** Why a partner's authentication failed; the throttle's refusal counts as `throttled`. */
export type AuthFailureReason = 'missing_key' | 'unknown_key' | 'disabled' | 'bad_signature' | 'bad_secret' | 'bad_timestamp' | 'stale_timestamp' | 'throttled';
/** Where a partner authenticated: a signed legacy (`rest`) or GraphQL request, or the OAuth token endpoint (client secret). */
export type AuthInterface = 'rest' | 'graphql' | 'oauth';

/**
 * What the authenticator reports. It is the partners' own port, so that partners/ needs nothing
 * from verification/; verification's `Metrics` extends it and the Prometheus module implements both.
 */
export interface AuthFailureMetrics {
  authFailure(reason: AuthFailureReason, iface: AuthInterface): void;
}
