import { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { Authenticator, Credentials } from '../partners/authenticator';
import { MethodNotAllowedError } from '../http/http-errors';
import { Logger } from '../observability/logger';
import { clientAddressKey } from '../http/client-address';
import { jsonBody } from '../http/json-body';
import { failureHandler } from '../http/failure-handler';
import { failureOf, renderFailure } from './graphql-errors';

/**
 * What runs on /graphql before Apollo: tagging for the request log, authentication, body
 * parsing, and the GraphQL-shaped answer when one of them refuses the request.
 */

/** Marks the request as GraphQL for the request log and metrics (request-log.ts). */
export const tagGraphql: RequestHandler = (_req, res, next) => {
  res.locals.interface = 'graphql';
  next();
};

const HEADER_NAMES = ['x-api-key', 'x-timestamp', 'x-signature'] as const;

function one(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * CONTRACT §2: the REST query parameters, or the headers x-api-key, x-timestamp, x-signature.
 * When any of those headers is present the credentials are read from headers only, so a
 * request never authenticates with a mix of both. A repeated query parameter counts as absent.
 */
export function credentialsOf(req: Request): Credentials {
  if (HEADER_NAMES.some((h) => req.headers[h] !== undefined)) {
    return { apiKey: one(req.headers['x-api-key']), timestamp: one(req.headers['x-timestamp']), sig: one(req.headers['x-signature']) };
  }
  const q = req.query as Record<string, unknown>;
  return { apiKey: one(q.api_key), timestamp: one(q.timestamp), sig: one(q.sig) };
}

/** Authenticates before the body is read, as REST does: an unsigned caller costs no parsing. */
export function authenticateGraphql(authenticator: Authenticator): RequestHandler {
  return (req, res, next) => {
    res.locals.partner = authenticator.authenticate(credentialsOf(req), clientAddressKey(req.ip), 'graphql');
    next();
  };
}

/**
 * Parses an application/json body with the REST parser (same limit, UTF-8 and charset rules).
 * Any other content type is passed on unparsed, so Apollo's CSRF prevention, not this
 * parser, is what refuses a simple request.
 */
export function graphqlBody(limitBytes: number): RequestHandler {
  const parse = jsonBody(limitBytes);
  return (req: Request, res: Response, next: NextFunction) => {
    if (!req.is('application/json')) {
      req.body = undefined; // present but empty: the express integration requires the property
      next();
      return;
    }
    parse(req, res, next);
  };
}

/** CONTRACT §2 names POST only; GET would put credentials and queries in URLs and logs. */
export const postOnly: RequestHandler = (_req, res) => {
  res.setHeader('Allow', 'POST');
  throw new MethodNotAllowedError('use POST');
};

/** Refusals before Apollo (401, 413, bad JSON, 405) in the GraphQL error shape, with REST's status. */
export function graphqlRefusal(logger: Logger): ErrorRequestHandler {
  return failureHandler(logger, failureOf, (res, failure) => {
    res.locals.code = failure.code;
    res.status(failure.status).json({ errors: [renderFailure(failure)] });
  });
}
