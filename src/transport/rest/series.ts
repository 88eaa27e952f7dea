import { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Runs middlewares one after another as a single Express layer. Every request passes the
 * same preamble (security headers, correlator, request log); as separate app.use() layers
 * each one costs a router step (path matching, closures) per request (docs/performance.md).
 * Errors, thrown or passed to next, and rejected promises go to the outer next, as Express
 * would send them.
 */
export function series(handlers: readonly RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err) {
        next(err);
        return;
      }
      const handler = handlers[i++];
      if (!handler) {
        next();
        return;
      }
      try {
        const out = handler(req, res, step) as unknown;
        if (out instanceof Promise) out.catch(next);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
