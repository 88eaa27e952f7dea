import { ErrorRequestHandler, RequestHandler } from 'express';
import { BadRequestError, DomainError, PayloadTooLargeError } from '../errors/domain-errors';
import { isLegacyOperation } from '../partners/operation';
import { Logger } from '../observability/logger';
import { RouteNotFoundError } from '../http/http-errors';
import { failureBody, failureOf, sendJson } from './rest-bodies';

export const notFound: RequestHandler = () => {
  throw new RouteNotFoundError('no such route');
};

/** Express and its parsers raise http-errors with a 4xx status: the caller's fault, so 11111. */
function asDomainError(err: unknown): unknown {
  if (err instanceof DomainError) return err;
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return status === 413 ? new PayloadTooLargeError('body too large') : new BadRequestError('request could not be read');
  }
  return err;
}

/** The one place a REST failure becomes a body (CONTRACT §1.2, §1.3). Stacks go to the log only. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (rawErr, req, res, next) => {
    if (res.headersSent) {
      next(rawErr);
      return;
    }
    const err = asDomainError(rawErr);
    const failure = failureOf(err);
    if (!(err instanceof DomainError)) {
      logger.error({ correlator: res.locals.correlator, err: rawErr, path: req.path }, 'unexpected error');
    }
    if (failure.retryAfterS !== undefined) res.setHeader('Retry-After', String(failure.retryAfterS));
    if (err instanceof DomainError && err.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.locals.code = failure.code;
    // In one step, as the routes answer (rest-bodies.ts): a refused request (S5) is as hot a path as a served one.
    sendJson(res, failure.status, failureBody(isLegacyOperation(res.locals.operation) ? res.locals.operation : undefined, failure.code, failure.desc));
  };
}
