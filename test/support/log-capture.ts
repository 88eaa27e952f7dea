import { Logger, createLogger } from '../../src/observability/logger';

export interface CapturedLogs {
  logger: Logger;
  /** Every line written so far, raw. */
  raw(): string[];
  /** Every line written so far, parsed. */
  lines(): Record<string, unknown>[];
}

/** A real pino logger (same redaction and formatting as production) writing into memory. */
export function captureLogs(level: string): CapturedLogs {
  const raw: string[] = [];
  const logger = createLogger(level, { write: (s: string) => { raw.push(s); } });
  return {
    logger,
    raw: () => raw,
    lines: () => raw.map((s) => JSON.parse(s) as Record<string, unknown>),
  };
}
