import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { BadRequestError, PayloadTooLargeError } from '../../domain/errors';

/**
 * Parses an application/json body within the size limit. Parser failures become domain
 * errors here, so every malformed body is a 11111 in the operation's own shape.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  const parse = express.json({ limit: limitBytes, strict: true, type: 'application/json' });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!req.is('application/json')) {
      next(new BadRequestError('Content-Type must be application/json'));
      return;
    }
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') return next(new PayloadTooLargeError(`body larger than ${limitBytes} bytes`));
      if (type === 'entity.parse.failed') return next(new BadRequestError('body is not valid JSON'));
      if (type === 'request.aborted') return next(new BadRequestError('request aborted'));
      const status = (err as { status?: number }).status;
      if (typeof status === 'number' && status >= 400 && status < 500) return next(new BadRequestError('body could not be read'));
      next(err);
    });
  };
}
