import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { Logger } from 'pino';
import { maskMsisdn } from '../kernel/msisdn';

export type { Logger };

/**
 * Fields that could carry a credential if some code logged a partner, a query or headers.
 * Nothing is meant to log them (the request line names the partner, never its key); this is
 * the second line of defence. An api key is not a secret, but it is half a credential and
 * the partner's name says the same to an SRE.
 */
export const REDACTED_PATHS = [
  'secret', '*.secret',
  'sig', '*.sig', 'query.sig',
  'apiKey', '*.apiKey', 'api_key', '*.api_key', 'query.api_key',
  'authorization', '*.authorization', 'headers.authorization',
  'headers["x-api-key"]', 'headers["x-signature"]',
];

/** What every line logged while a request is served carries (CONTRACT §1.5). */
export interface LogContext {
  /** The request's correlator: the x-correlator sent, else one generated. */
  correlator: string;
  /** Present (empty) when the caller sent an empty x-correlator: echoed as sent, logged under a generated one. */
  correlatorSent?: string;
}

const requestContext = new AsyncLocalStorage<LogContext>();

/** Runs `fn` (and everything it starts) with `context` on every log line. */
export function runWithLogContext<T>(context: LogContext, fn: () => T): T {
  return requestContext.run(context, fn);
}

/** The context in force, or undefined outside a request. */
export function currentLogContext(): LogContext | undefined {
  return requestContext.getStore();
}

const NO_CONTEXT = {};

/** A number that long in an error text is likely an msisdn (a URL path, a Redis key): masked. */
const LONG_DIGITS = /\d{8,}/g;
const MAX_CAUSES = 5;

interface SerializedError {
  type: string;
  message: string;
  code?: string | number;
  stack?: string;
  cause?: SerializedError | string;
}

/**
 * Errors as type, message, `code` (ECONNREFUSED, ENOTFOUND, a TLS code) and stack, then their
 * `cause` chain. Only these fields: pino's default copies every enumerable property, and an
 * axios error holds the request URL (with the msisdn) and its headers, an ioredis error the
 * command's keys.
 */
export function serializeError(err: unknown, depth = 0): SerializedError | string {
  if (!(err instanceof Error)) return String(err).replace(LONG_DIGITS, maskMsisdn);
  const out: SerializedError = { type: err.name, message: err.message.replace(LONG_DIGITS, maskMsisdn) };
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') out.code = code;
  if (err.stack) out.stack = err.stack.replace(LONG_DIGITS, maskMsisdn);
  if (err.cause !== undefined && depth < MAX_CAUSES) out.cause = serializeError(err.cause, depth + 1);
  return out;
}

/** Structured JSON logs, one object per line, ISO timestamps, level as a word. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({
    level,
    base: { service: 'verify-customer' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    formatters: { level: (label) => ({ level: label }) },
    serializers: { err: serializeError },
    // The request's correlator on every line it causes, whichever module logs it; a field the
    // call gives itself wins (pino merges the call's object over the mixin's).
    mixin: () => requestContext.getStore() ?? NO_CONTEXT,
    // pino's default merge assigns the call's fields onto the mixin's object, which is shared (the
    // request's context, or NO_CONTEXT): one line's fields would then appear on every later line.
    mixinMergeStrategy: (mergeObject, mixinObject) => ({ ...mixinObject, ...mergeObject }),
  }, destination);
}
