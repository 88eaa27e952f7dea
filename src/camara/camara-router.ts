import { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { camaraErrorHandler } from './camara-error-handler';
import { camaraRequest } from './camara-request';
import { BadRequestError } from '../errors/domain-errors';
import { AccessGrant, AccessTokenVerifier } from '../oauth/ports/access-tokens';
import { Operation } from '../partners/operation';
import { Logger } from '../observability/logger';
import { MethodNotAllowedError, RouteNotFoundError } from '../http/http-errors';
import { jsonBody } from '../http/json-body';
import { sendJson } from '../http/send-json';
import { servesCamaraRoot } from './not-found-routes';

/** What a CAMARA API's routes need from the composition root. */
export interface CamaraRouterDeps {
  tokens: AccessTokenVerifier;
  logger: Logger;
  bodyLimitBytes: number;
}

/** A 200 answer: the body sent, and the normalised msisdn it is about (logged masked, never echoed). */
export interface CamaraAnswer {
  msisdn: string;
  body: object;
}

/** One POST operation of a CAMARA API. */
export interface CamaraOperationRoute {
  /** The full path, e.g. `/sim-swap/v2/check`. */
  path: string;
  /** The registry word it belongs to: the metrics label and the rate limit. */
  partnerOperation: Operation;
  answer(grant: AccessGrant, body: unknown, correlator: string): Promise<CamaraAnswer>;
}

/**
 * An API's routes and its ErrorInfo handler, mounted together (`app.use(routes)`). A pair of
 * plain handlers rather than an express Router: every request the legacy routes do not take
 * passes every API mounted here, and a router level costs each one (docs/performance.md).
 */
export type CamaraRoutes = [RequestHandler, ErrorRequestHandler];

export interface CamaraApiRoutes {
  /** The API's name (`sim-swap`): its error handler applies the API's CAMARA_API_OVERRIDES. */
  name: string;
  /** The API root (`/sim-swap/v2`): any other path under it is a CAMARA 404, not the legacy one. */
  root: string;
  operations: readonly CamaraOperationRoute[];
  /**
   * The API's yaml declares every operation's body required: a request without body bytes is
   * 400, where the JSON parser would read it as `{}` (as body-parser does).
   */
  bodyRequired?: boolean;
}

/** Whether the request carried body bytes at all. */
function carriesBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Case-insensitive, one trailing slash allowed: as Express's router matches, and as the legacy routes do. */
function routeKey(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
}

/**
 * The routes of one CAMARA API with the shared rules of every CAMARA API: POST only, a valid
 * x-correlator, the bearer token verified before the body is read (as the legacy routes
 * authenticate first), a body where the API requires one, then the operation; every failure on
 * these paths becomes ErrorInfo here (with the API's overrides) and never reaches the legacy
 * error middleware.
 */
export function camaraRouter(deps: CamaraRouterDeps, api: CamaraApiRoutes): CamaraRoutes {
  const body = jsonBody(deps.bodyLimitBytes);
  const root = routeKey(api.root);
  const byPath = new Map(api.operations.map((op) => [routeKey(op.path), op]));

  const routes: RequestHandler = (req, res, next) => {
    const key = routeKey(req.path);
    const operation = byPath.get(key);
    if (operation === undefined) {
      if (key === root || key.startsWith(`${root}/`)) {
        res.locals.interface = 'camara';
        throw new RouteNotFoundError('no such resource');
      }
      next();
      return;
    }
    res.locals.interface = 'camara';
    res.locals.operation = operation.partnerOperation;
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      throw new MethodNotAllowedError('this operation takes POST only');
    }
    camaraRequest(req, res, next, { tokens: deps.tokens, body }, async (grant) => {
      if (api.bodyRequired === true && !carriesBody(req)) throw new BadRequestError('the request body is required: a JSON object');
      const answer = await operation.answer(grant, req.body, String(res.locals.correlator));
      res.locals.msisdn = answer.msisdn;
      res.locals.code = '00000';
      sendJson(res, 200, answer.body);
    });
  };

  return [servesCamaraRoot(routes, api.root), camaraErrorHandler(deps.logger, api.name)];
}
