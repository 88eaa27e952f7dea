import { NextFunction, Request, RequestHandler, Response } from 'express';
import { AuditRecorder } from '../audit/audit-recorder';
import { Authenticator } from '../partners/authenticator';
import { MsisdnNormaliser } from '../kernel/msisdn';
import { OffsetDateTimeFormatter } from '../kernel/offset-date-time';
import { LEGACY_OPERATIONS, LegacyOperation } from '../partners/operation';
import { Partner } from '../partners/partners';
import { parseRestBody } from '../verification/verification-input';
import { VerificationService } from '../verification/verification-service';
import { clientAddressKey } from '../http/client-address';
import { queryCredentials } from './authenticate';
import { MethodNotAllowedError } from '../http/http-errors';
import { jsonBody } from '../http/json-body';
import { sendJson } from '../http/send-json';
import { successBody } from './rest-bodies';

export interface VerificationRoutesDeps {
  service: VerificationService;
  authenticator: Authenticator;
  normalise: MsisdnNormaliser;
  formatDate: OffsetDateTimeFormatter;
  bodyLimitBytes: number;
  /** Every verification that reaches the service leaves one audit record (docs/audit.md). */
  audit: AuditRecorder;
}

export const OPERATION_PATH_PREFIX = '/eai/verify_customer/query/';

/**
 * The path as Express's router would match it (case-insensitive, one trailing slash allowed),
 * so the lookup below answers exactly the requests `router.post(path)` did.
 */
function routeKey(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
}

/**
 * The two partner operations (CONTRACT §1): authenticate, parse, verify, render.
 *
 * One middleware with a map lookup rather than a Router with a route of four handlers: this
 * is the path every partner request takes, and each router level and each next() step cost it
 * CPU and allocations (docs/performance.md). The steps and their order are unchanged:
 * authentication before the body is read, so an unsigned caller costs no parsing.
 */
export function verificationRoutes(deps: VerificationRoutesDeps): RequestHandler {
  const body = jsonBody(deps.bodyLimitBytes);
  const byPath = new Map<string, LegacyOperation>(LEGACY_OPERATIONS.map((op) => [OPERATION_PATH_PREFIX + op, op]));

  const verify = async (req: Request, res: Response, operation: LegacyOperation) => {
    const input = parseRestBody(req.body, operation, deps.normalise);
    res.locals.msisdn = input.msisdn;
    const partner = res.locals.partner as Partner;
    const answer = await deps.audit.track(
      { partner, operation, msisdn: input.msisdn, txnId: input.txnId, context: { interface: 'legacy', correlator: res.locals.correlator as string } },
      () => deps.service.verify(partner, input), (a) => a.replayed);
    if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.locals.code = '00000';
    sendJson(res, 200, successBody(answer.result, deps.formatDate));
  };

  return (req: Request, res: Response, next: NextFunction) => {
    const operation = byPath.get(routeKey(req.path));
    if (operation === undefined) {
      next();
      return;
    }
    res.locals.operation = operation;
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      throw new MethodNotAllowedError('use POST');
    }
    // Thrown errors here reach the error middleware through Express's own try/catch.
    res.locals.partner = deps.authenticator.authenticate(queryCredentials(req), clientAddressKey(req.ip));
    body(req, res, (err?: unknown) => {
      if (err) {
        next(err);
        return;
      }
      verify(req, res, operation).catch(next);
    });
  };
}
