import { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { camaraErrorHandler } from '../../camara/camara-error-handler';
import { camaraRequest } from '../../camara/camara-request';
import { MethodNotAllowedError, RouteNotFoundError } from '../../http/http-errors';
import { jsonBody } from '../../http/json-body';
import { sendJson } from '../../legacy-rest/rest-bodies';
import { Logger } from '../../observability/logger';
import { AccessTokenVerifier } from '../../oauth/ports/access-tokens';
import { KycMatchService } from '../kyc-match-service';

export interface KycMatchRoutesDeps {
  kycMatch: KycMatchService;
  tokens: AccessTokenVerifier;
  bodyLimitBytes: number;
  logger: Logger;
}

export const KYC_MATCH_ROOT = '/kyc-match/v0.4';
export const KYC_MATCH_PATH = `${KYC_MATCH_ROOT}/match`;

/** Case-insensitive, one trailing slash allowed, as the other CAMARA routes match. */
function routeKey(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
}

/**
 * POST /kyc-match/v0.4/match (CONTRACT §11) through the shared CAMARA kit: correlator, bearer
 * token, JSON body, ErrorInfo. The answer holds only what the comparison produced: `<attr>Match`
 * and `<attr>MatchScore`, never a value of the request or the record.
 */
export function kycMatchRoutes(deps: KycMatchRoutesDeps): [RequestHandler, ErrorRequestHandler] {
  const body = jsonBody(deps.bodyLimitBytes);
  const routes: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    const key = routeKey(req.path);
    if (key !== KYC_MATCH_PATH) {
      if (key === KYC_MATCH_ROOT || key.startsWith(`${KYC_MATCH_ROOT}/`)) {
        res.locals.interface = 'camara';
        throw new RouteNotFoundError('no such resource');
      }
      next();
      return;
    }
    res.locals.interface = 'camara';
    res.locals.operation = 'kyc_match';
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      throw new MethodNotAllowedError(`only POST is allowed on ${KYC_MATCH_PATH}`);
    }
    camaraRequest(req, res, next, { tokens: deps.tokens, body }, async (grant) => {
      const answer = await deps.kycMatch.match(grant, req.body, String(res.locals.correlator));
      res.locals.msisdn = answer.msisdn;
      res.locals.code = '00000';
      sendJson(res, 200, answer.response);
    });
  };
  return [routes, camaraErrorHandler(deps.logger)];
}
