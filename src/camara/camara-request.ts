import { NextFunction, Request, RequestHandler, Response } from 'express';
import { BadRequestError } from '../errors/domain-errors';
import { AccessGrant, AccessTokenVerifier } from '../oauth/ports/access-tokens';
import { requireBearerToken } from '../http/bearer';

/** The CAMARA XCorrelator pattern (sim-swap.yaml, kyc-tenure.yaml, sim-swap-subscriptions.yaml). */
const CORRELATOR = /^[a-zA-Z0-9-_:;./<>{}]{0,256}$/;

/**
 * What every CAMARA route does once its path and method are known: a valid `x-correlator`,
 * then the bearer token (401 before the body is read, as the legacy routes authenticate first),
 * then, when the operation has one, the JSON body; then `answer` with the grant. Every failure
 * goes to `next`, where the CAMARA error handler turns it into ErrorInfo.
 */
export function camaraRequest(req: Request, res: Response, next: NextFunction,
  deps: { tokens: AccessTokenVerifier; body: RequestHandler | undefined }, answer: (grant: AccessGrant) => Promise<void>): void {
  const correlator = req.headers['x-correlator'];
  if (typeof correlator === 'string' && !CORRELATOR.test(correlator)) {
    throw new BadRequestError('x-correlator must match ^[a-zA-Z0-9-_:;./<>{}]{0,256}$');
  }
  const token = requireBearerToken(req.headers.authorization);
  deps.tokens.verify(token).then((grant) => {
    res.locals.partner = grant.partner;
    if (!deps.body) {
      answer(grant).catch(next);
      return;
    }
    deps.body(req, res, (err?: unknown) => {
      if (err) {
        next(err);
        return;
      }
      answer(grant).catch(next);
    });
  }, next);
}
