import { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { BadRequestError } from '../errors/domain-errors';
import { AccessGrant, AccessTokenVerifier } from '../oauth/ports/access-tokens';
import { SubscriptionRecord } from './domain/subscription';
import { SubscriptionService } from './domain/subscription-service';
import { Logger } from '../observability/logger';
import { MethodNotAllowedError, RouteNotFoundError } from '../http/http-errors';
import { servesCamaraRoot } from '../camara/not-found-routes';
import { jsonBody } from '../http/json-body';
import { sendJson } from '../http/send-json';
import { camaraErrorHandler } from '../camara/camara-error-handler';
import { camaraRequest } from '../camara/camara-request';
import { camaraApi } from '../partners/camara-apis';

export interface SubscriptionRoutesDeps {
  subscriptions: SubscriptionService;
  tokens: AccessTokenVerifier;
  bodyLimitBytes: number;
  logger: Logger;
}

export const SUBSCRIPTIONS_ROOT = camaraApi('sim-swap-subscriptions').root;
/** The collection, or one subscription (its id as sent: ids are case-sensitive). */
const PATH = /^\/sim-swap-subscriptions\/v0\.3\/subscriptions(?:\/([^/]+))?\/?$/i;

/** The Subscription resource as the reader may see it: never the credential; the number only for two-legged readers. */
function view(s: SubscriptionRecord, grant: AccessGrant): object {
  const config: Record<string, unknown> = {
    subscriptionDetail: s.threeLegged || grant.phoneNumber !== undefined ? {} : { phoneNumber: s.phoneNumber },
  };
  if (s.subscriptionExpireTime !== undefined) config.subscriptionExpireTime = s.subscriptionExpireTime;
  if (s.maxEvents !== undefined) config.subscriptionMaxEvents = s.maxEvents;
  const out: Record<string, unknown> = {
    protocol: 'HTTP', sink: s.sink, types: s.types, config, id: s.id,
    startsAt: new Date(s.startsAtMs).toISOString(),
  };
  if (s.expiresAtMs !== undefined) out.expiresAt = new Date(s.expiresAtMs).toISOString();
  out.status = 'ACTIVE';
  return out;
}

/**
 * SIM Swap Subscriptions 0.3.0 (CONTRACT §8), with the CAMARA routes' token, correlator and
 * ErrorInfo rules (src/camara/). Returned as [routes, error handler]: failures on these paths
 * become ErrorInfo there and never reach the legacy error middleware.
 */
export function subscriptionRoutes(deps: SubscriptionRoutesDeps): [RequestHandler, ErrorRequestHandler] {
  const body = jsonBody(deps.bodyLimitBytes);

  const answer = async (req: Request, res: Response, id: string | undefined, grant: AccessGrant): Promise<void> => {
    const s = deps.subscriptions;
    if (id === undefined && req.method === 'POST') return ok(res, 201, view(await s.create(grant, req.body), grant));
    if (id === undefined) return ok(res, 200, (await s.list(grant)).map((x) => view(x, grant)));
    if (req.method === 'GET') return ok(res, 200, view(await s.get(grant, id), grant));
    await s.delete(grant, id);
    res.locals.code = '00000';
    res.status(204).end();
  };

  const routes: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    const lower = req.path.toLowerCase();
    if (lower !== SUBSCRIPTIONS_ROOT && !lower.startsWith(`${SUBSCRIPTIONS_ROOT}/`)) {
      next();
      return;
    }
    res.locals.interface = 'camara';
    res.locals.operation = 'sim_swap';
    const m = PATH.exec(req.path);
    if (!m) throw new RouteNotFoundError('no such resource');
    let id: string | undefined;
    try {
      id = m[1] === undefined ? undefined : decodeURIComponent(m[1]);
    } catch {
      throw new BadRequestError('subscriptionId is not a valid URL path segment');
    }
    const allowed = id === undefined ? ['GET', 'POST'] : ['GET', 'DELETE'];
    if (!allowed.includes(req.method)) {
      res.setHeader('Allow', allowed.join(', '));
      throw new MethodNotAllowedError(`use ${allowed.join(' or ')}`);
    }
    camaraRequest(req, res, next, { tokens: deps.tokens, body: req.method === 'POST' ? body : undefined }, (grant) => answer(req, res, id, grant));
  };

  const errors = camaraErrorHandler(deps.logger);

  return [servesCamaraRoot(routes, SUBSCRIPTIONS_ROOT), errors];
}

function ok(res: Response, status: number, body: object): void {
  res.locals.code = '00000';
  sendJson(res, status, body);
}
