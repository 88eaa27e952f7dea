import { NextFunction, Request, RequestHandler, Response } from 'express';
import { Authenticator, Credentials } from '../../domain/authenticator';

function one(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Credentials from the query string (CONTRACT §1.5); a repeated parameter counts as absent. */
export function queryCredentials(req: Request): Credentials {
  const q = req.query as Record<string, unknown>;
  return { apiKey: one(q.api_key), timestamp: one(q.timestamp), sig: one(q.sig) };
}

/** Authenticates before the body is read, so an unsigned caller costs no parsing. */
export function authenticate(authenticator: Authenticator): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    res.locals.partner = authenticator.authenticate(queryCredentials(req));
    next();
  };
}
