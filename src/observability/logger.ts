import pino, { Logger } from 'pino';

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

/** Structured JSON logs, one object per line, ISO timestamps, level as a word. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({
    level,
    base: { service: 'verify-customer' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    formatters: { level: (label) => ({ level: label }) },
  }, destination);
}
