import { Request, Response, Router } from 'express';
import { BadRequestError, UnauthenticatedError } from '../errors/domain-errors';
import { MsisdnNormaliser } from './msisdn';
import { validateMsisdn } from './verification-input';
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

/** The reporter's own id for the swap: the same on each retry of one report, so its events are queued once. */
const SWAP_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** SIM-management's swap event (CONTRACT §5): evicts that number's cached answers at once. */
export function eventsRoutes(deps: EventsRoutesDeps): Router {
  const router = Router();
  const tokenMatches = deps.token ? bearerTokenCheck(deps.token) : undefined;
  router.post('/internal/events/sim-swap', (req: Request, _res: Response, next) => {
    if (!tokenMatches) throw new RouteNotFoundError('no such route');
    if (!tokenMatches(req.headers.authorization)) throw new UnauthenticatedError('bearer token required');
    next();
  }, jsonBody(deps.bodyLimitBytes), async (req: Request, res: Response) => {
    const body = req.body as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequestError('body must be a JSON object');
    const { msisdn } = validateMsisdn((body as Record<string, unknown>).msisdn, deps.normalise);
    const swapId = (body as Record<string, unknown>).eventId;
    if (swapId !== undefined && (typeof swapId !== 'string' || !SWAP_ID.test(swapId))) {
      throw new BadRequestError('eventId must be 1 to 128 characters of A-Z a-z 0-9 . _ : -');
    }
    res.locals.msisdn = msisdn;
    await deps.service.evict(msisdn);
    // Acknowledged only once the events are stored: a failure here is a 503 the reporter retries.
    await deps.subscriptions?.onSwap(msisdn, swapId);
    res.locals.code = '00000';
    res.status(200).json({ code: '00000', desc: 'Success' });
  });
  return router;
}
