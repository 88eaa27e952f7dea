/**
 * The one table of every condition the service can refuse a request for, as Fastify's
 * `lib/errors.js` declares each `FST_ERR_*` once: a row names what every interface shows for
 * it, and the transports only look rows up (error-lookup.ts). A DomainError subclass names its
 * row with `kind`; the compiler refuses a kind without a row.
 *
 * Columns:
 * - `legacy`: the REST code and HTTP status (CONTRACT §1.3). Also the audit record's outcome
 *   and the HTTP status of a GraphQL request refused before Apollo runs.
 * - `camara`: the ErrorInfo status and code (CONTRACT §7, the specs' own codes). Absent: no
 *   CAMARA operation raises it; if one ever did, it is answered 500 INTERNAL and logged.
 * - `oauth`: the RFC 6749 §5.2 error and status of the token endpoint. Absent: the token
 *   endpoint never raises it; if it ever did, 500 `server_error`, logged.
 * - `graphql`: `extensions.code` of the GraphQL error (CONTRACT §2), REST's code.
 * - `bearer`: the RFC 6750 §3.1 error a protected resource's `WWW-Authenticate: Bearer`
 *   challenge names (src/http/bearer-challenge.ts). Absent: the failure is not about the token.
 *
 * To add a condition: one row here, and one class `extends domainError('<ROW>') {}` beside the
 * feature that raises it. To give one CAMARA API its own code for a shared condition (its yaml
 * names another), one line in CAMARA_API_OVERRIDES. docs/errors.md says more.
 */

/** Result codes of a failure (seed §7): the caller's fault, or the system's. */
export type FailureCode = '11111' | '9999';

/** RFC 6749 §5.2 error codes (and §4.1.2.1's temporarily_unavailable for the throttles). */
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_scope' | 'unsupported_grant_type'
  | 'temporarily_unavailable' | 'server_error';

/** RFC 6750 §3.1 error codes of a Bearer challenge. */
export type BearerErrorCode = 'invalid_token' | 'insufficient_scope';

export interface CatalogRow {
  readonly legacy: readonly [code: FailureCode, status: number];
  readonly camara?: readonly [status: number, code: string];
  readonly oauth?: readonly [error: OAuthErrorCode, status: number];
  readonly graphql: FailureCode;
  readonly bearer?: BearerErrorCode;
}

export const ERROR_CATALOG = {
  // The domain's conditions (CONTRACT §1.3).
  BAD_REQUEST: { legacy: ['11111', 400], camara: [400, 'INVALID_ARGUMENT'], oauth: ['invalid_request', 400], graphql: '11111' },
  // The specs document no 413 and no code for it (docs/camara.md): an argument CAMARA refuses.
  PAYLOAD_TOO_LARGE: { legacy: ['11111', 413], camara: [400, 'INVALID_ARGUMENT'], oauth: ['invalid_request', 400], graphql: '11111' },
  UNAUTHENTICATED: { legacy: ['11111', 401], camara: [401, 'UNAUTHENTICATED'], graphql: '11111', bearer: 'invalid_token' },
  FORBIDDEN: { legacy: ['11111', 403], camara: [403, 'PERMISSION_DENIED'], graphql: '11111' },
  // An access token without the operation's scope (src/oauth/oauth-errors.ts): a 403 whose challenge names the scopes.
  INSUFFICIENT_SCOPE: { legacy: ['11111', 403], camara: [403, 'PERMISSION_DENIED'], graphql: '11111', bearer: 'insufficient_scope' },
  NOT_SUBSCRIBER: { legacy: ['11111', 404], camara: [404, 'IDENTIFIER_NOT_FOUND'], graphql: '11111' },
  // CAMARA has no txn_id, so no conflict can arise there.
  CONFLICT: { legacy: ['11111', 409], graphql: '11111' },
  RATE_LIMITED: { legacy: ['11111', 429], camara: [429, 'TOO_MANY_REQUESTS'], oauth: ['temporarily_unavailable', 429], graphql: '11111' },
  UPSTREAM_UNAVAILABLE: { legacy: ['9999', 503], camara: [503, 'UNAVAILABLE'], graphql: '9999' },
  // AUDIT_FAIL_CLOSED refuses while the audit trail cannot take records: unavailable for now, worth a retry.
  AUDIT_UNAVAILABLE: { legacy: ['9999', 503], camara: [503, 'UNAVAILABLE'], graphql: '9999' },
  // The management plane (CONTRACT §12, src/partners/ports/partner-admin.ts): an unknown partner
  // or secret, and a registry change refused while its PostgreSQL store cannot be reached.
  NOT_FOUND: { legacy: ['11111', 404], graphql: '11111' },
  REGISTRY_UNAVAILABLE: { legacy: ['9999', 503], graphql: '9999' },

  // The transport's conditions (src/http/http-errors.ts).
  ROUTE_NOT_FOUND: { legacy: ['11111', 404], camara: [404, 'NOT_FOUND'], graphql: '11111' },
  METHOD_NOT_ALLOWED: { legacy: ['11111', 405], camara: [405, 'METHOD_NOT_ALLOWED'], oauth: ['invalid_request', 405], graphql: '11111' },

  // CAMARA's own (src/camara/camara-errors.ts); the legacy column is what they would be elsewhere.
  OUT_OF_RANGE: { legacy: ['11111', 400], camara: [400, 'OUT_OF_RANGE'], graphql: '11111' },
  MISSING_IDENTIFIER: { legacy: ['11111', 422], camara: [422, 'MISSING_IDENTIFIER'], graphql: '11111' },
  UNNECESSARY_IDENTIFIER: { legacy: ['11111', 422], camara: [422, 'UNNECESSARY_IDENTIFIER'], graphql: '11111' },
  SERVICE_NOT_APPLICABLE: { legacy: ['11111', 422], camara: [422, 'SERVICE_NOT_APPLICABLE'], graphql: '11111' },

  // SIM Swap Subscriptions' own (sim-swap-subscriptions.yaml CreateSubscriptionBadRequest400, Generic404, Generic429).
  INVALID_PROTOCOL: { legacy: ['11111', 400], camara: [400, 'INVALID_PROTOCOL'], graphql: '11111' },
  INVALID_CREDENTIAL: { legacy: ['11111', 400], camara: [400, 'INVALID_CREDENTIAL'], graphql: '11111' },
  INVALID_TOKEN_TYPE: { legacy: ['11111', 400], camara: [400, 'INVALID_TOKEN'], graphql: '11111' },
  INVALID_SINK: { legacy: ['11111', 400], camara: [400, 'INVALID_SINK'], graphql: '11111' },
  SUBSCRIPTION_NOT_FOUND: { legacy: ['11111', 404], camara: [404, 'NOT_FOUND'], graphql: '11111' },
  SUBSCRIPTION_QUOTA: { legacy: ['11111', 429], camara: [429, 'QUOTA_EXCEEDED'], graphql: '11111' },

  // The signal APIs' own (CONTRACT §11; device-swap.yaml, call-forwarding-signal.yaml, number-recycling.yaml).
  // A number never used in a device: no device change to tell (device-swap.yaml's 422 scenarios).
  NEVER_IN_DEVICE: { legacy: ['11111', 422], camara: [422, 'SERVICE_NOT_APPLICABLE'], graphql: '11111' },
  // The HLR does not say which forwarding services the line has: "could not be retrieved", 404.
  CALL_FORWARDING_UNKNOWN: { legacy: ['11111', 404], camara: [404, 'IDENTIFIER_NOT_FOUND'], graphql: '11111' },
  // CALL_FORWARDING_LIST=false: the operator does not offer the full list (the operator's choice, not the caller's fault).
  CALL_FORWARDING_LIST_NOT_OFFERED: { legacy: ['9999', 501], camara: [501, 'NOT_IMPLEMENTED'], graphql: '9999' },
  // The HLR does not say when the current subscriber began: no code for "no data", 422 is the nearest.
  SUBSCRIBER_START_UNKNOWN: { legacy: ['11111', 422], camara: [422, 'SERVICE_NOT_APPLICABLE'], graphql: '11111' },
  // KYC Match's own (kyc-match.yaml Generic400, Generic403; src/kyc-match/kyc-match-errors.ts).
  INVALID_PARAM_COMBINATION: { legacy: ['11111', 400], camara: [400, 'KNOW_YOUR_CUSTOMER.INVALID_PARAM_COMBINATION'], graphql: '11111' },
  INVALID_TOKEN_CONTEXT: { legacy: ['11111', 403], camara: [403, 'INVALID_TOKEN_CONTEXT'], graphql: '11111' },
  ID_DOCUMENT_REQUIRED: { legacy: ['11111', 403], camara: [403, 'KNOW_YOUR_CUSTOMER.ID_DOCUMENT_REQUIRED'], graphql: '11111' },
  ID_DOCUMENT_MISMATCH: { legacy: ['11111', 403], camara: [403, 'KNOW_YOUR_CUSTOMER.ID_DOCUMENT_MISMATCH'], graphql: '11111' },

  // The token endpoint's own (src/oauth/oauth-errors.ts, RFC 6749 §5.2).
  INVALID_CLIENT: { legacy: ['11111', 401], oauth: ['invalid_client', 401], graphql: '11111' },
  INVALID_SCOPE: { legacy: ['11111', 400], oauth: ['invalid_scope', 400], graphql: '11111' },
  UNSUPPORTED_GRANT_TYPE: { legacy: ['11111', 400], oauth: ['unsupported_grant_type', 400], graphql: '11111' },
} as const satisfies Record<string, CatalogRow>;

export type ErrorKind = keyof typeof ERROR_CATALOG;

/**
 * Where one CAMARA API's yaml answers a shared condition with a code of its own, keyed by the
 * API's name as its routes pass it to camaraErrorHandler; only the CAMARA column changes. One
 * line per API, e.g. `'some-api': { NOT_SUBSCRIBER: [404, 'NOT_FOUND'] }`. A condition only one
 * API has is a row of its own above, not an override.
 */
export type CamaraOverrides = Readonly<Record<string, Partial<Record<ErrorKind, readonly [status: number, code: string]>>>>;

export const CAMARA_API_OVERRIDES: CamaraOverrides = {};
