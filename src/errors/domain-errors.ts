import { CatalogRow, ERROR_CATALOG, ErrorKind, FailureCode } from './error-catalog';

/** Result codes of the contract (seed §7). */
export type ResultCode = '00000' | FailureCode;

export const SUCCESS_DESC = 'Success';
export const PROCESS_ERROR_DESC = 'Error Process';
export const SYSTEM_ERROR_DESC = 'Unexpected system Error';

/**
 * Every condition the contract names (CONTRACT §1.3) has its own error type, whose `kind` names
 * its row in the error catalog (error-catalog.ts): the row, not the class, says what each
 * interface shows. `reason` is safe to show a caller: it never names a secret, a key's existence
 * or a stack. `cause` (ES2022) keeps the failure this one stands for, for the log only.
 */
export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
  /** Seconds a caller should wait before retrying, when that is meaningful. */
  readonly retryAfterS?: number;
  /** True when this is the stored answer of an earlier request with the same txn_id. */
  replayed = false;

  constructor(readonly reason: string, retryAfterS?: number, options?: ErrorOptions) {
    super(reason, options);
    this.name = new.target.name;
    if (retryAfterS !== undefined) this.retryAfterS = retryAfterS;
  }

  /** The legacy REST code of this condition (its catalog row); a kind with no row is unexpected. */
  get code(): FailureCode {
    return legacyColumn(this.kind)[0];
  }

  /** The legacy REST HTTP status of this condition (its catalog row). */
  get httpStatus(): number {
    return legacyColumn(this.kind)[1];
  }

  get desc(): string {
    return describe(this.code, this.reason);
  }
}

/** A kind the catalog lacks (only a cast can make one) is shown as the unexpected failure it is. */
function legacyColumn(kind: ErrorKind): readonly [FailureCode, number] {
  return (ERROR_CATALOG as Partial<Record<string, CatalogRow>>)[kind]?.legacy ?? [UNEXPECTED.code, UNEXPECTED.httpStatus];
}

/**
 * The base of one catalog row's errors, as Fastify's createError makes one class per code:
 * `export class OutOfRangeError extends domainError('OUT_OF_RANGE') {}`.
 */
export function domainError(kind: ErrorKind) {
  return class extends DomainError {
    readonly kind: ErrorKind = kind;
  };
}

/** The seed's message for a code, then the reason when there is one (CONTRACT §1.2). */
export function describe(code: FailureCode, reason: string): string {
  const base = code === '11111' ? PROCESS_ERROR_DESC : SYSTEM_ERROR_DESC;
  return reason ? `${base}: ${reason}` : base;
}

export class BadRequestError extends domainError('BAD_REQUEST') {}

export class PayloadTooLargeError extends domainError('PAYLOAD_TOO_LARGE') {}

export class UnauthenticatedError extends domainError('UNAUTHENTICATED') {}

export class ForbiddenError extends domainError('FORBIDDEN') {}

export class NotSubscriberError extends domainError('NOT_SUBSCRIBER') {}

/**
 * The HLR does not say which forwarding services the line has (the field is absent):
 * call-forwarding-signal's scenarios answer "a valid phone number for which the call
 * forwarding status could not be retrieved" with 404 IDENTIFIER_NOT_FOUND; GraphQL's
 * callForwarding signal is decided by the same rule (verification/subscriber-facts.ts).
 */
export class CallForwardingUnknownError extends domainError('CALL_FORWARDING_UNKNOWN') {}

export class ConflictError extends domainError('CONFLICT') {}

export class RateLimitedError extends domainError('RATE_LIMITED') {}

/** An unknown partner or secret named to the management plane (CONTRACT §12). */
export class NotFoundError extends domainError('NOT_FOUND') {}

/** A partner registry change that cannot be made now: its PostgreSQL store is unreachable. */
export class RegistryUnavailableError extends domainError('REGISTRY_UNAVAILABLE') {}

/**
 * A well-typed value outside its allowed range (maxAge over the monitored period, a future
 * tenureDate): CAMARA's 400 OUT_OF_RANGE; GraphQL shows it too, to partners bound by a monitored period.
 */
export class OutOfRangeError extends domainError('OUT_OF_RANGE') {}

/** Upstream down, timed out or its circuit open, and no usable cached answer. */
export class UpstreamUnavailableError extends domainError('UPSTREAM_UNAVAILABLE') {}

/** Not an error of its own: what an unknown failure is shown as. */
export const UNEXPECTED = { code: '9999', httpStatus: 500, desc: SYSTEM_ERROR_DESC } as const;
