import { ErrorRequestHandler } from 'express';
import { DomainError } from '../errors/domain-errors';
import { Logger } from '../observability/logger';
import { bearerChallenge } from '../http/bearer-challenge';
import { sendJson } from '../legacy-rest/rest-bodies';
import { camaraFailureOf } from './error-info';

/**
 * The one error handler of the CAMARA paths (SIM Swap, KYC Tenure, subscriptions): a failure on
 * a request marked `interface: camara` becomes the spec's ErrorInfo here and never reaches the
 * legacy error middleware. Unknown errors are logged with their stack and answered 500 INTERNAL.
 */
export function camaraErrorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent || res.locals.interface !== 'camara') {
      next(err);
      return;
    }
    const failure = camaraFailureOf(err);
    if (!(err instanceof DomainError)) {
      logger.error({ correlator: res.locals.correlator, err, path: req.path }, 'unexpected error');
    }
    if (failure.retryAfterS !== undefined) res.setHeader('Retry-After', String(failure.retryAfterS));
    const challenge = bearerChallenge(err, req.headers.authorization);
    if (challenge !== undefined) res.setHeader('WWW-Authenticate', challenge);
    sendJson(res, failure.info.status, failure.info);
  };
}
