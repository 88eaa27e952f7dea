/** Result codes of the contract (seed §7). */
export type ResultCode = '00000' | '11111' | '9999';

export const SUCCESS_DESC = 'Success';
export const PROCESS_ERROR_DESC = 'Error Process';
export const SYSTEM_ERROR_DESC = 'Unexpected system Error';

/**
 * Every condition the contract names (CONTRACT §1.3) has its own error type, which knows
 * its code and HTTP status; transports render them, they never decide them.
 * `reason` is safe to show a caller: it never names a secret, a key's existence or a stack.
 */
export abstract class DomainError extends Error {
  abstract readonly code: '11111' | '9999';
  abstract readonly httpStatus: number;
  /** Seconds a caller should wait before retrying, when that is meaningful. */
  readonly retryAfterS?: number;
  /** True when this is the stored answer of an earlier request with the same txn_id. */
  replayed = false;

  constructor(readonly reason: string, retryAfterS?: number) {
    super(reason);
    this.name = new.target.name;
    if (retryAfterS !== undefined) this.retryAfterS = retryAfterS;
  }

  get desc(): string {
    const base = this.code === '11111' ? PROCESS_ERROR_DESC : SYSTEM_ERROR_DESC;
    return this.reason ? `${base}: ${this.reason}` : base;
  }
}

export class BadRequestError extends DomainError {
  readonly code = '11111';
  readonly httpStatus = 400;
}

export class PayloadTooLargeError extends DomainError {
  readonly code = '11111';
  readonly httpStatus = 413;
}

export class UnauthenticatedError extends DomainError {
  readonly code = '11111';
  readonly httpStatus = 401;
}

export class ForbiddenError extends DomainError {
  readonly code = '11111';
  readonly httpStatus = 403;
}

export class NotSubscriberError extends DomainError {
  readonly code = '11111';
  readonly httpStatus = 404;
}

export class ConflictError extends DomainError {
  readonly code = '11111';
  readonly httpStatus = 409;
}

export class RateLimitedError extends DomainError {
  readonly code = '11111';
  readonly httpStatus = 429;
}

/** Upstream down, timed out or its circuit open, and no usable cached answer. */
export class UpstreamUnavailableError extends DomainError {
  readonly code = '9999';
  readonly httpStatus = 503;
}

/** Not an error of its own: what an unknown failure is shown as. */
export const UNEXPECTED = { code: '9999', httpStatus: 500, desc: SYSTEM_ERROR_DESC } as const;
