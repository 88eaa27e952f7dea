import { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { CAMARA_PARTNER_OPERATION, CamaraOperation, CamaraService } from './camara-service';
import { OffsetDateTimeFormatter } from '../kernel/offset-date-time';
import { AccessGrant, AccessTokenVerifier } from '../oauth/ports/access-tokens';
import { Logger } from '../observability/logger';
import { MethodNotAllowedError, RouteNotFoundError } from '../http/http-errors';
import { jsonBody } from '../http/json-body';
import { sendJson } from '../legacy-rest/rest-bodies';
import { camaraErrorHandler } from './camara-error-handler';
import { camaraRequest } from './camara-request';

export interface CamaraRoutesDeps {
  camara: CamaraService;
  tokens: AccessTokenVerifier;
  formatDate: OffsetDateTimeFormatter;
  bodyLimitBytes: number;
  logger: Logger;
}

/** The API roots of CONTRACT §7 and their operations. */
export const CAMARA_PATHS: ReadonlyMap<string, CamaraOperation> = new Map([
  ['/sim-swap/v2/retrieve-date', 'retrieve-date'],
  ['/sim-swap/v2/check', 'check'],
  ['/kyc-tenure/v0.2/check-tenure', 'check-tenure'],
]);
const ROOTS = ['/sim-swap/v2', '/kyc-tenure/v0.2'];


/** Case-insensitive, one trailing slash allowed: as Express's router matches, and as the legacy routes do. */
function routeKey(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
}

function underRoot(key: string): boolean {
  return ROOTS.some((root) => key === root || key.startsWith(`${root}/`));
}

/**
 * The three CAMARA operations (CONTRACT §7): correlator, token, body, the CAMARA service, and
 * the answer. The token is verified before the body is read, as the legacy routes authenticate
 * first. Returned as [routes, error handler]: failures on these paths become ErrorInfo here and
 * never reach the legacy error middleware.
 */
export function camaraRoutes(deps: CamaraRoutesDeps): [RequestHandler, ErrorRequestHandler] {
  const body = jsonBody(deps.bodyLimitBytes);

  const answer = async (req: Request, res: Response, operation: CamaraOperation, grant: AccessGrant): Promise<void> => {
    switch (operation) {
      case 'retrieve-date': {
        const r = await deps.camara.retrieveDate(grant, req.body, String(res.locals.correlator));
        res.locals.msisdn = r.msisdn;
        const out: Record<string, unknown> = { latestSimChange: r.latestSimChangeMs === null ? null : deps.formatDate(new Date(r.latestSimChangeMs)) };
        if (r.monitoredPeriodDays !== undefined) out.monitoredPeriod = r.monitoredPeriodDays;
        return ok(res, out);
      }
      case 'check': {
        const r = await deps.camara.check(grant, req.body, String(res.locals.correlator));
        res.locals.msisdn = r.msisdn;
        return ok(res, { swapped: r.swapped });
      }
      case 'check-tenure': {
        const r = await deps.camara.checkTenure(grant, req.body, String(res.locals.correlator));
        res.locals.msisdn = r.msisdn;
        return ok(res, { tenureDateCheck: r.tenureDateCheck, contractType: r.contractType });
      }
      default: {
        const never: never = operation;
        throw new Error(`unknown CAMARA operation ${String(never)}`);
      }
    }
  };

  const routes: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    const key = routeKey(req.path);
    const operation = CAMARA_PATHS.get(key);
    if (operation === undefined) {
      if (underRoot(key)) {
        res.locals.interface = 'camara';
        throw new RouteNotFoundError('no such resource');
      }
      next();
      return;
    }
    res.locals.interface = 'camara';
    res.locals.operation = CAMARA_PARTNER_OPERATION[operation];
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      throw new MethodNotAllowedError('use POST');
    }
    camaraRequest(req, res, next, { tokens: deps.tokens, body }, (grant) => answer(req, res, operation, grant));
  };

  const errors = camaraErrorHandler(deps.logger);

  return [routes, errors];
}

function ok(res: Response, body: object): void {
  res.locals.code = '00000';
  sendJson(res, 200, body);
}
