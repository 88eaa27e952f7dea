import { ErrorRequestHandler, RequestHandler } from 'express';
import { fromHttpError, legacyFailureOf } from '../errors/error-lookup';
import { isLegacyOperation } from '../partners/operation';
import { Logger } from '../observability/logger';
import { RouteNotFoundError } from '../http/http-errors';
import { failureHandler } from '../http/failure-handler';
import { failureBody, sendJson } from './rest-bodies';

export const notFound: RequestHandler = () => {
  throw new RouteNotFoundError('no such route');
};

/**
 * The one place a REST failure becomes a body (CONTRACT §1.2, §1.3), by the error catalog's
 * legacy column. Stacks and causes go to the log only.
 */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return failureHandler(logger, (err) => legacyFailureOf(fromHttpError(err)), (res, failure) => {
    if (failure.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.locals.code = failure.code;
    // In one step, as the routes answer (rest-bodies.ts): a refused request (S5) is as hot a path as a served one.
    sendJson(res, failure.status, failureBody(isLegacyOperation(res.locals.operation) ? res.locals.operation : undefined, failure.code, failure.desc));
  });
}
