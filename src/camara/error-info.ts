import {
  MissingIdentifierError, OutOfRangeError, ServiceNotApplicableError, UnnecessaryIdentifierError,
} from './camara-errors';
import {
  BadRequestError, ConflictError, DomainError, ForbiddenError, NotSubscriberError, PayloadTooLargeError,
  RateLimitedError, UnauthenticatedError, UpstreamUnavailableError,
} from '../errors/domain-errors';
import {
  InvalidCredentialError, InvalidProtocolError, InvalidSinkError, InvalidTokenTypeError, SubscriptionNotFoundError, SubscriptionQuotaError,
} from '../subscriptions/domain/subscription-errors';
import { MethodNotAllowedError, RouteNotFoundError } from '../http/http-errors';
import {
  IdDocumentMismatchError, IdDocumentRequiredError, InvalidParamCombinationError, InvalidTokenContextError,
} from '../kyc-match/kyc-match-errors';

/** CAMARA's error body (sim-swap.yaml, kyc-tenure.yaml `ErrorInfo`). */
export interface ErrorInfo {
  status: number;
  code: string;
  message: string;
}

export interface CamaraFailure {
  info: ErrorInfo;
  retryAfterS?: number;
}

/** The fixed message each code carries when the condition has no reason of its own to add. */
const DEFAULT_MESSAGES: Record<string, string> = {
  UNAUTHENTICATED: 'Request not authenticated due to missing, invalid, or expired credentials. A new authentication is required.',
  PERMISSION_DENIED: 'Client does not have sufficient permissions to perform this action.',
  INTERNAL: 'Unknown server error. Typically a server bug.',
  UNAVAILABLE: 'Service Unavailable.',
};

function info(status: number, code: string, reason: string): ErrorInfo {
  return { status, code, message: reason || (DEFAULT_MESSAGES[code] ?? code) };
}

/**
 * The one place a CAMARA failure becomes an ErrorInfo (CONTRACT §7). Codes are the specs'
 * own; 405, 503 and 500 use the CAMARA Commonalities codes the specs refer to. An oversized
 * body is 400 INVALID_ARGUMENT: the specs document no 413 and no code for it (docs/camara.md).
 * Reasons are safe to show (DomainError); anything unknown is 500 INTERNAL with a fixed message.
 */
export function camaraFailureOf(err: unknown): CamaraFailure {
  if (!(err instanceof DomainError)) return { info: info(500, 'INTERNAL', '') };
  const f = (status: number, code: string, reason = err.reason): CamaraFailure => {
    const out: CamaraFailure = { info: info(status, code, reason) };
    if (err.retryAfterS !== undefined) out.retryAfterS = err.retryAfterS;
    return out;
  };
  // Subscriptions (sim-swap-subscriptions.yaml CreateSubscriptionBadRequest400, Generic404).
  if (err instanceof InvalidProtocolError) return f(400, 'INVALID_PROTOCOL');
  if (err instanceof InvalidCredentialError) return f(400, 'INVALID_CREDENTIAL');
  if (err instanceof InvalidTokenTypeError) return f(400, 'INVALID_TOKEN');
  if (err instanceof InvalidSinkError) return f(400, 'INVALID_SINK');
  if (err instanceof SubscriptionNotFoundError) return f(404, 'NOT_FOUND');
  if (err instanceof SubscriptionQuotaError) return f(429, 'QUOTA_EXCEEDED');
  // KYC Match (kyc-match.yaml Generic400, Generic403).
  if (err instanceof InvalidParamCombinationError) return f(400, 'KNOW_YOUR_CUSTOMER.INVALID_PARAM_COMBINATION');
  if (err instanceof InvalidTokenContextError) return f(403, 'INVALID_TOKEN_CONTEXT');
  if (err instanceof IdDocumentRequiredError) return f(403, 'KNOW_YOUR_CUSTOMER.ID_DOCUMENT_REQUIRED');
  if (err instanceof IdDocumentMismatchError) return f(403, 'KNOW_YOUR_CUSTOMER.ID_DOCUMENT_MISMATCH');
  // Subclasses before the classes they share a status with.
  if (err instanceof OutOfRangeError) return f(400, 'OUT_OF_RANGE');
  if (err instanceof BadRequestError || err instanceof PayloadTooLargeError) return f(400, 'INVALID_ARGUMENT');
  if (err instanceof UnauthenticatedError) return f(401, 'UNAUTHENTICATED');
  if (err instanceof ForbiddenError) return f(403, 'PERMISSION_DENIED');
  if (err instanceof NotSubscriberError) return f(404, 'IDENTIFIER_NOT_FOUND');
  if (err instanceof RouteNotFoundError) return f(404, 'NOT_FOUND');
  if (err instanceof MethodNotAllowedError) return f(405, 'METHOD_NOT_ALLOWED');
  if (err instanceof MissingIdentifierError) return f(422, 'MISSING_IDENTIFIER');
  if (err instanceof UnnecessaryIdentifierError) return f(422, 'UNNECESSARY_IDENTIFIER');
  if (err instanceof ServiceNotApplicableError) return f(422, 'SERVICE_NOT_APPLICABLE');
  if (err instanceof RateLimitedError) return f(429, 'TOO_MANY_REQUESTS');
  // AUDIT_FAIL_CLOSED refuses with a 503 too (AuditUnavailableError): unavailable for now, worth a retry.
  if (err instanceof UpstreamUnavailableError || err.httpStatus === 503) return f(503, 'UNAVAILABLE');
  // No txn_id in CAMARA, so no conflict can arise; shown as the generic internal error if it ever did.
  if (err instanceof ConflictError) return { info: info(500, 'INTERNAL', '') };
  // A domain condition added later and not mapped here: a client fault stays a 400, never a 500.
  return err.httpStatus < 500 ? f(400, 'INVALID_ARGUMENT') : { info: info(500, 'INTERNAL', '') };
}
