import pino, { Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. Secrets never reach a log: nothing logs a partner object, and the
 * redaction list is a second line of defence for the fields that could carry one.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({
    level,
    base: { service: 'verify-customer' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['secret', '*.secret', 'sig', '*.sig', 'authorization', '*.authorization', 'headers.authorization', 'query.sig'],
      censor: '[redacted]',
    },
    formatters: { level: (label) => ({ level: label }) },
  }, destination);
}
