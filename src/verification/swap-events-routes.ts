import { Request, Response, Router } from 'express';
import { UnauthenticatedError } from '../errors/domain-errors';
import { MsisdnNormaliser } from '../kernel/msisdn';
import { parseSwapEventBody } from './verification-input';
import { VerificationService } from './verification-service';
import { bearerTokenCheck } from '../http/bearer';
import { RouteNotFoundError } from '../http/http-errors';
import { jsonBody } from '../http/json-body';

export interface EventsRoutesDeps {
  service: VerificationService;
  normalise: MsisdnNormaliser;
  /** Unset: the route does not exist (404). */
  token?: string;
  bodyLimitBytes: number;
  /** Turns the swap into subscription events (CONTRACT §8); absent: eviction only. */
  subscriptions?: { onSwap(msisdn: string, swapId?: string): Promise<number> };
}

/** SIM-management's swap event (CONTRACT §5): evicts that number's cached answers at once. */
export function eventsRoutes(deps: EventsRoutesDeps): Router {
  const router = Router();
  const tokenMatches = deps.token ? bearerTokenCheck(deps.token) : undefined;
  router.post('/internal/events/sim-swap', (req: Request, _res: Response, next) => {
    if (!tokenMatches) throw new RouteNotFoundError('no such route');
    if (!tokenMatches(req.headers.authorization)) throw new UnauthenticatedError('bearer token required');
    next();
  }, jsonBody(deps.bodyLimitBytes), async (req: Request, res: Response) => {
    const { msisdn, swapId } = parseSwapEventBody(req.body, deps.normalise);
    res.locals.msisdn = msisdn;
    await deps.service.evict(msisdn);
    // Acknowledged only once the events are stored: a failure here is a 503 the reporter retries.
    await deps.subscriptions?.onSwap(msisdn, swapId);
    res.locals.code = '00000';
    res.status(200).json({ code: '00000', desc: 'Success' });
  });
  return router;
}
