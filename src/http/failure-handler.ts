import { ErrorRequestHandler, Request, Response } from 'express';
import { AnsweredFailure, ErrorLogger, logUnexpected } from '../errors/error-lookup';

/**
 * An Express error handler answering failures in one interface's shape. `lookUp` reads the
 * error catalog (undefined: not this handler's request, passed on); `send` writes the answer.
 * What every interface does alike is here: a failure after the headers went is Express's to
 * end, an unexpected one is logged once with its cause, and Retry-After is set.
 */
export function failureHandler<F extends AnsweredFailure>(
  logger: ErrorLogger,
  lookUp: (err: unknown, res: Response) => F | undefined,
  send: (res: Response, failure: F, err: unknown, req: Request) => void,
): ErrorRequestHandler {
  return (err, req, res, next) => {
    const failure = res.headersSent ? undefined : lookUp(err, res);
    if (failure === undefined) {
      next(err);
      return;
    }
    if (failure.unexpected) logUnexpected(logger, err, { correlator: res.locals.correlator, path: req.path });
    if (failure.retryAfterS !== undefined) res.setHeader('Retry-After', String(failure.retryAfterS));
    send(res, failure, err, req);
  };
}
