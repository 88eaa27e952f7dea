import { randomUUID } from 'node:crypto';
import { NextFunction, Request, Response } from 'express';
import { LogContext, runWithLogContext } from '../observability/logger';

/** CONTRACT §1.5 and docs/openapi.yaml's `Correlator`; the CAMARA documents' pattern is the same set. */
export const CORRELATOR = /^[A-Za-z0-9\-_:;./<>{}]{0,256}$/;

/**
 * CONTRACT §1.5: echo a valid x-correlator, generate one otherwise. An invalid one is not
 * echoed (it could carry header injection); the request is still answered and traced (the
 * CAMARA routes refuse it with 400 afterwards, as their documents say).
 *
 * An empty one is valid (the pattern allows length 0) and echoed empty; it cannot find a request
 * in the logs, so the request's log lines and audit record carry a generated one as `correlator`,
 * with `correlatorSent: ""` beside it.
 *
 * Everything the request runs, every route included, runs inside its log context, so every
 * line logged on its behalf carries the correlator (src/observability/logger.ts).
 */
export function correlator(req: Request, res: Response, next: NextFunction): void {
  const given = req.headers['x-correlator'];
  const valid = typeof given === 'string' && CORRELATOR.test(given);
  const context: LogContext = valid && given.length > 0 ? { correlator: given } : { correlator: randomUUID() };
  if (valid && given.length === 0) context.correlatorSent = '';
  res.locals.correlator = context.correlator;
  res.setHeader('x-correlator', valid ? given : context.correlator);
  runWithLogContext(context, next);
}
