import { ErrorRequestHandler } from 'express';
import { logUnexpected } from '../errors/error-lookup';
import { Logger } from '../observability/logger';
import { bearerChallenge } from '../http/bearer-challenge';
import { sendJson } from '../legacy-rest/rest-bodies';
import { camaraFailureOf } from './error-info';

/**
 * The one error handler of the CAMARA paths (SIM Swap, KYC Tenure, subscriptions): a failure on
 * a request marked `interface: camara` becomes the spec's ErrorInfo here and never reaches the
 * legacy error middleware. `api` names the CAMARA API whose codes override the catalog's
 * (CAMARA_API_OVERRIDES). Unknown errors are logged with their stack and cause and answered
 * 500 INTERNAL.
 */
export function camaraErrorHandler(logger: Logger, api?: string): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent || res.locals.interface !== 'camara') {
      next(err);
      return;
    }
    const failure = camaraFailureOf(err, api);
    if (failure.unexpected) logUnexpected(logger, err, { correlator: res.locals.correlator, path: req.path });
    if (failure.retryAfterS !== undefined) res.setHeader('Retry-After', String(failure.retryAfterS));
    const challenge = bearerChallenge(err, req.headers.authorization);
    if (challenge !== undefined) res.setHeader('WWW-Authenticate', challenge);
    sendJson(res, failure.info.status, failure.info);
  };
}
