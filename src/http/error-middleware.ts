import { ErrorRequestHandler, RequestHandler } from 'express';
import { fromHttpError, legacyFailureOf } from '../errors/error-lookup';
import { LegacyOperation, isLegacyOperation } from '../partners/operation';
import { Logger } from '../observability/logger';
import { RouteNotFoundError } from './http-errors';
import { failureHandler } from './failure-handler';
import { sendJson } from './send-json';

// The partners' port answers every failure that no interface's own handler took (an unknown
// route, a legacy REST failure, a last-resort 500) in the legacy body (CONTRACT §1.2: unknown
// routes use the flat shape), so this fallback belongs to the HTTP kit that mounts it last.

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
    // In one step, as the routes answer (send-json.ts): a refused request (S5) is as hot a path as a served one.
    sendJson(res, failure.status, failureBody(isLegacyOperation(res.locals.operation) ? res.locals.operation : undefined, failure.code, failure.desc));
  });
}

/** CONTRACT §1.2: KYC fails flat, SIM swap inside "response". Unknown routes use the flat shape. */
export function failureBody(operation: LegacyOperation | undefined, code: string, desc: string): object {
  return operation === 'sim_swap' ? { response: { code, desc } } : { code, desc };
}
