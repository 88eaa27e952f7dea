import { isUtf8 } from 'node:buffer';
import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { BadRequestError, PayloadTooLargeError } from '../errors/domain-errors';
import { currentLogContext, runWithLogContext } from '../observability/logger';
import { awaitingContinue, sendContinue } from './expect-continue';

/** Content types the fast path takes as is; anything else goes through express.json(). */
const PLAIN_JSON = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);
const BOM = 0xfeff;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/**
 * Parses an application/json body within the size limit. Parser failures become domain
 * errors here, so every malformed body is a 11111 in the operation's own shape.
 *
 * The common request (plain JSON content type, a Content-Length within the limit, no
 * Content-Encoding) is read by a few lines here: body-parser's generality (charsets,
 * inflation, streaming limits) cost about a tenth of a cache hit's CPU (docs/performance.md).
 * Every other request takes express.json(), which keeps its answers for the unusual cases.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  // RFC 8259 §8.1: JSON text is UTF-8. Without this check invalid bytes would be decoded to
  // U+FFFD and the body accepted, so a mangled request could pass as a different one.
  const parse = express.json({
    limit: limitBytes, strict: true, type: 'application/json',
    verify: (_req, _res, buf) => {
      if (!isUtf8(buf)) throw new BadRequestError('body is not valid UTF-8');
    },
  });
  const general = (req: Request, res: Response, next: NextFunction) => {
    if (!req.is('application/json')) {
      next(new BadRequestError('Content-Type must be application/json'));
      return;
    }
    // body-parser would also decode UTF-16 and UTF-7, which let a body say '"' in bytes a proxy
    // in front never sees as one. JSON is UTF-8 (RFC 8259 §8.1): any other charset is refused.
    const charset = CHARSET.exec(req.headers['content-type'] ?? '')?.[1];
    if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
      next(new BadRequestError('charset must be utf-8'));
      return;
    }
    // A client waiting for 100 Continue has sent no body yet: a declared length over the limit
    // is refused now (there is nothing to drain), anything else is invited.
    if (awaitingContinue(req, res) && req.headers['content-encoding'] === undefined && Number(req.headers['content-length']) > limitBytes) {
      next(new PayloadTooLargeError(`body larger than ${limitBytes} bytes`));
      return;
    }
    sendContinue(req, res);
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') return next(new PayloadTooLargeError(`body larger than ${limitBytes} bytes`));
      if (type === 'entity.parse.failed') return next(new BadRequestError('body is not valid JSON'));
      if (type === 'entity.verify.failed') return next(new BadRequestError('body is not valid UTF-8'));
      if (type === 'request.aborted') return next(new BadRequestError('request aborted'));
      const status = (err as { status?: number }).status;
      if (typeof status === 'number' && status >= 400 && status < 500) return next(new BadRequestError('body could not be read'));
      next(err);
    });
  };
  return (req: Request, res: Response, nextHandler: NextFunction) => {
    // The body's last bytes arrive in the HTTP parser's async context, not the request's: resume
    // the handlers inside the request's log context, or their lines would lose the correlator.
    const context = currentLogContext();
    const next: NextFunction = context ? (err?: unknown) => runWithLogContext(context, () => nextHandler(err)) : nextHandler;
    const h = req.headers;
    const type = h['content-type'];
    const length = h['content-length'];
    if (type === undefined || length === undefined || h['content-encoding'] !== undefined || h['transfer-encoding'] !== undefined
      || !PLAIN_JSON.has(type.toLowerCase())) {
      general(req, res, next);
      return;
    }
    const expected = Number(length);
    if (!(expected <= limitBytes)) {
      general(req, res, next); // over the limit (413) or unreadable: express.json() answers as before
      return;
    }
    sendContinue(req, res);
    readPlainJson(req, expected, next);
  };
}

/** Collects exactly `expected` bytes and parses them as body-parser does in strict mode. */
function readPlainJson(req: Request, expected: number, next: NextFunction): void {
  const chunks: Buffer[] = [];
  let received = 0;
  let settled = false;
  const settle = (err?: unknown) => {
    if (settled) return;
    settled = true;
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
    req.off('aborted', onAborted);
    next(err);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    chunks.push(chunk);
  };
  const onEnd = () => {
    if (received !== expected) return settle(new BadRequestError('body could not be read'));
    const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received);
    if (!isUtf8(bytes)) return settle(new BadRequestError('body is not valid UTF-8')); // as the verify hook above
    let text = bytes.toString('utf8');
    if (text.charCodeAt(0) === BOM) text = text.slice(1); // iconv-lite, under body-parser, drops it too
    try {
      req.body = parseStrict(text);
    } catch {
      return settle(new BadRequestError('body is not valid JSON'));
    }
    settle();
  };
  const onError = () => settle(new BadRequestError('request aborted'));
  const onAborted = onError;
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
  req.on('aborted', onAborted);
}

/** body-parser's strict mode: an empty body is {}, anything but an object or array is refused. */
function parseStrict(text: string): unknown {
  if (text.length === 0) return {};
  const first = /^[ \t\n\r]*(.?)/.exec(text)?.[1];
  if (first !== '{' && first !== '[') throw new SyntaxError('strict violation');
  return JSON.parse(text);
}
