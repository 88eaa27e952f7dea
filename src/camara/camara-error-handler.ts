import { ErrorRequestHandler } from 'express';
import { Logger } from '../observability/logger';
import { bearerChallenge } from '../http/bearer-challenge';
import { failureHandler } from '../http/failure-handler';
import { sendJson } from '../http/send-json';
import { camaraFailureOf } from './error-info';

/**
 * The one error handler of the CAMARA paths (SIM Swap, KYC Tenure, KYC Match, subscriptions): a failure on
 * a request marked `interface: camara` becomes the spec's ErrorInfo here and never reaches the
 * legacy error middleware. `api` names the CAMARA API whose codes override the catalog's
 * (CAMARA_API_OVERRIDES). Unknown errors are logged with their stack and cause and answered
 * 500 INTERNAL.
 */
export function camaraErrorHandler(logger: Logger, api?: string): ErrorRequestHandler {
  return failureHandler(logger, (err, res) => (res.locals.interface === 'camara' ? camaraFailureOf(err, api) : undefined), (res, failure, err, req) => {
    const challenge = bearerChallenge(err, req.headers.authorization);
    if (challenge !== undefined) res.setHeader('WWW-Authenticate', challenge);
    sendJson(res, failure.info.status, failure.info);
  });
}
