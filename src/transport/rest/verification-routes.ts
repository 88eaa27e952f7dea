import { NextFunction, Request, Response, Router } from 'express';
import { Authenticator } from '../../domain/authenticator';
import { MsisdnNormaliser } from '../../domain/msisdn';
import { OffsetDateTimeFormatter } from '../../domain/offset-date-time';
import { OPERATIONS, Operation } from '../../domain/operation';
import { Partner } from '../../domain/ports/partners';
import { parseRestBody } from '../../domain/verification-input';
import { VerificationService } from '../../domain/verification-service';
import { authenticate } from './authenticate';
import { MethodNotAllowedError } from './http-errors';
import { jsonBody } from './json-body';
import { successBody } from './rest-bodies';

export interface VerificationRoutesDeps {
  service: VerificationService;
  authenticator: Authenticator;
  normalise: MsisdnNormaliser;
  formatDate: OffsetDateTimeFormatter;
  bodyLimitBytes: number;
}

export const OPERATION_PATH_PREFIX = '/eai/verify_customer/query/';

/** The two partner operations (CONTRACT §1): authenticate, parse, verify, render. */
export function verificationRoutes(deps: VerificationRoutesDeps): Router {
  const router = Router();
  const body = jsonBody(deps.bodyLimitBytes);
  const auth = authenticate(deps.authenticator);

  for (const operation of OPERATIONS) {
    const path = OPERATION_PATH_PREFIX + operation;
    const tag = (_req: Request, res: Response, next: NextFunction) => {
      res.locals.operation = operation;
      next();
    };
    router.post(path, tag, auth, body, async (req: Request, res: Response) => {
      const input = parseRestBody(req.body, operation as Operation, deps.normalise);
      res.locals.msisdn = input.msisdn;
      const answer = await deps.service.verify(res.locals.partner as Partner, input);
      if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
      res.locals.code = '00000';
      res.status(200).json(successBody(answer.result, deps.formatDate));
    });
    router.all(path, tag, (_req: Request, res: Response) => {
      res.setHeader('Allow', 'POST');
      throw new MethodNotAllowedError('use POST');
    });
  }
  return router;
}
