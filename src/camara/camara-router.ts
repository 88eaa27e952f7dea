import { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { camaraErrorHandler } from './camara-error-handler';
import { camaraRequest } from './camara-request';
import { BadRequestError } from '../errors/domain-errors';
import { AccessGrant, AccessTokenVerifier } from '../oauth/ports/access-tokens';
import { CamaraApiRoot, CamaraOperationName, camaraApiAt } from '../partners/camara-apis';
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

/** One POST operation's work and rendering: the declaration gives its path, scopes and registry operation. */
export type CamaraOperationAnswer = (grant: AccessGrant, body: unknown, correlator: string) => Promise<CamaraAnswer>;

/** Each operation the declaration at `R` names, answered: one missing or one undeclared does not compile. */
export type CamaraOperationAnswers<R extends CamaraApiRoot> = { readonly [K in CamaraOperationName<R>]: CamaraOperationAnswer };

interface OperationRoute {
  partnerOperation: Operation;
  answer: CamaraOperationAnswer;
}

/**
 * An API's routes and its ErrorInfo handler, mounted together (`app.use(routes)`). A pair of
 * plain handlers rather than an express Router: every request the legacy routes do not take
 * passes every API mounted here, and a router level costs each one (docs/performance.md).
 */
export type CamaraRoutes = [RequestHandler, ErrorRequestHandler];

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
 * The routes of the API version declared at `root` (src/partners/camara-apis.ts: its name, its
 * operations' paths, its registry operation, whether its bodies are required), each operation
 * answered by `answers`, with the shared rules of every CAMARA API: POST only, a valid
 * x-correlator, the bearer token verified before the body is read (as the legacy routes
 * authenticate first), a body where the API requires one, then the operation; every failure on
 * these paths becomes ErrorInfo here (with the API's overrides) and never reaches the legacy
 * error middleware.
 */
export function camaraRouter<R extends CamaraApiRoot>(deps: CamaraRouterDeps, root: R, answers: CamaraOperationAnswers<R>): CamaraRoutes {
  const api = camaraApiAt(root);
  const body = jsonBody(deps.bodyLimitBytes);
  const rootKey = routeKey(api.root);
  const answerOf = answers as Readonly<Record<string, CamaraOperationAnswer>>;
  const byPath = new Map<string, OperationRoute>(api.operations.map((op) => [
    routeKey(`${api.root}/${op.name}`),
    { partnerOperation: api.registryOperation, answer: answerOf[op.name] },
  ]));

  const routes: RequestHandler = (req, res, next) => {
    const key = routeKey(req.path);
    const operation = byPath.get(key);
    if (operation === undefined) {
      if (key === rootKey || key.startsWith(`${rootKey}/`)) {
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
