import { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { AccessGrant, AccessTokenVerifier } from '../oauth/ports/access-tokens';
import { Logger } from '../observability/logger';
import { BadRequestError } from '../errors/domain-errors';
import { MethodNotAllowedError, RouteNotFoundError } from '../http/http-errors';
import { jsonBody } from '../http/json-body';
import { Operation } from '../partners/operation';
import { sendJson } from '../legacy-rest/rest-bodies';
import { camaraErrorHandler } from './camara-error-handler';
import { camaraRequest } from './camara-request';

/** What one CAMARA operation answers: the body to send and the number it was about (request log, never echoed). */
export interface CamaraAnswer {
  msisdn: string;
  body: object;
}

/** One `POST` operation of a CAMARA API: the partner operation it belongs to, and its answer. */
export interface CamaraEndpoint {
  /** Registry operation: permission, rate limit and the metrics label. */
  operation: Operation;
  answer(grant: AccessGrant, body: unknown, correlator: string): Promise<CamaraAnswer>;
}

/** A CAMARA API's routes and the error handler that answers their failures as ErrorInfo; mount both, in this order. */
export type CamaraApiHandlers = [RequestHandler, ErrorRequestHandler];

export interface CamaraApiRoutesDeps {
  tokens: AccessTokenVerifier;
  bodyLimitBytes: number;
  logger: Logger;
}

/**
 * Whether the request carried body bytes. The JSON parser reads an empty body as `{}` (as
 * body-parser does), but each of these operations declares its body required.
 */
function carriesBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Case-insensitive, one trailing slash allowed: as Express's router matches, and as the other CAMARA routes do. */
function routeKey(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
}

/**
 * The routes of one CAMARA API under its root (e.g. `/device-swap/v1`): each operation is a
 * POST with correlator, bearer token (before the body is read) and JSON body, as
 * camaraRequest does for every CAMARA route; an unknown path under the root is 404 NOT_FOUND
 * and another method 405, both as ErrorInfo. Returned as [routes, error handler], like
 * camaraRoutes: failures here never reach the legacy error middleware.
 */
export function camaraApiRoutes(root: string, endpoints: Readonly<Record<string, CamaraEndpoint>>,
  deps: CamaraApiRoutesDeps): CamaraApiHandlers {
  const body = jsonBody(deps.bodyLimitBytes);
  const rootKey = routeKey(root);
  const byPath = new Map(Object.entries(endpoints).map(([path, e]) => [routeKey(`${root}${path}`), e]));

  const routes: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    const key = routeKey(req.path);
    const endpoint = byPath.get(key);
    if (endpoint === undefined) {
      if (key === rootKey || key.startsWith(`${rootKey}/`)) {
        res.locals.interface = 'camara';
        throw new RouteNotFoundError('no such resource');
      }
      next();
      return;
    }
    res.locals.interface = 'camara';
    res.locals.operation = endpoint.operation;
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      throw new MethodNotAllowedError('this operation takes POST only');
    }
    camaraRequest(req, res, next, { tokens: deps.tokens, body }, async (grant) => {
      if (!carriesBody(req)) throw new BadRequestError('the request body is required: a JSON object');
      const answer = await endpoint.answer(grant, req.body, String(res.locals.correlator));
      res.locals.msisdn = answer.msisdn;
      res.locals.code = '00000';
      sendJson(res, 200, answer.body);
    });
  };

  return [routes, camaraErrorHandler(deps.logger)];
}
