import { randomUUID } from 'node:crypto';
import { NextFunction, Request, Response } from 'express';

const CORRELATOR = /^[A-Za-z0-9\-_:;./<>{}]{0,256}$/;

/**
 * CONTRACT §1.5: echo a valid x-correlator, generate one otherwise. An invalid one is not
 * echoed (it could carry header injection); the request is still answered and traced.
 */
export function correlator(req: Request, res: Response, next: NextFunction): void {
  const given = req.headers['x-correlator'];
  const id = typeof given === 'string' && given.length > 0 && CORRELATOR.test(given) ? given : randomUUID();
  res.locals.correlator = id;
  res.setHeader('x-correlator', id);
  next();
}
