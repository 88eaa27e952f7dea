import { join, resolve } from 'node:path';
import { AuditSettings } from '../../config/audit-settings';
import { AuditRecord, AuditTrail } from '../ports/audit-trail';
import { Clock } from '../../kernel/clock';
import { Logger } from '../../observability/logger';
import { AuditMetrics } from './audit-metrics';
import { AuditJournal } from './audit-journal';
import { AuditSink } from './audit-sink';
import { AuditSpool } from './audit-spool';
import { AuditMode, BufferedAuditTrail } from './buffered-audit-trail';
import { FileAuditSink } from './file-audit-sink';
import { PostgresAuditSink } from './postgres-audit-sink';

/** The audit trail as the composition root owns it: record, report, flush, stop. */
export interface AuditWriter extends AuditTrail {
  mode(): AuditMode | 'off';
  start(): Promise<void>;
  /** Resolves once everything recorded so far is written or spooled. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export const SPOOL_FILE = 'audit-spool.jsonl';
export const QUARANTINE_FILE = 'audit-quarantine.jsonl';

/** AUDIT_ENABLED=false: nothing is recorded (benchmarks measuring the trail's cost). */
const offWriter: AuditWriter = {
  record: (_entry: AuditRecord) => Promise.resolve(), healthy: () => true, mode: () => 'off',
  start: async () => {}, flush: async () => {}, close: async () => {},
};

export interface AuditWriterDeps {
  logger: Logger;
  clock: Clock;
  metrics: AuditMetrics;
  /** How often retention runs; default hourly. */
  maintenanceMs?: number;
}

/** Journal write failures, logged at most once a second: a full disk fails every write, and a flood would bury the cause. */
function journalErrorLog(logger: Logger): (err: Error) => void {
  let lastMs = 0;
  return (err) => {
    const now = Date.now();
    if (now - lastMs < 1000) return;
    lastMs = now;
    logger.error({ err: err.message }, 'audit journal write failed: records answered meanwhile survive a process crash only once written or spooled');
  };
}

/** PostgreSQL when AUDIT_DATABASE_URL is set, else month files under AUDIT_DIR; the spool is under AUDIT_DIR either way. */
export function createAuditWriter(config: AuditSettings, deps: AuditWriterDeps): AuditWriter {
  if (!config.AUDIT_ENABLED) {
    deps.logger.warn('AUDIT_ENABLED=false: verifications leave no audit record (CONTRACT §9 requires one)');
    return offWriter;
  }
  const dir = resolve(config.AUDIT_DIR);
  const sink: AuditSink = config.AUDIT_DATABASE_URL
    ? new PostgresAuditSink({
      url: config.AUDIT_DATABASE_URL, retentionDays: config.AUDIT_RETENTION_DAYS,
      queryTimeoutMs: config.AUDIT_WRITE_TIMEOUT_MS, logger: deps.logger,
    })
    : new FileAuditSink(dir, config.AUDIT_RETENTION_DAYS);
  return new BufferedAuditTrail({
    sink, spool: new AuditSpool(join(dir, SPOOL_FILE)), quarantine: new AuditSpool(join(dir, QUARANTINE_FILE)),
    journal: new AuditJournal(dir, journalErrorLog(deps.logger)),
    metrics: deps.metrics, logger: deps.logger, clock: deps.clock,
    settings: {
      batchMax: config.AUDIT_BATCH_MAX, flushMs: config.AUDIT_FLUSH_MS, bufferMax: config.AUDIT_BUFFER_MAX,
      writeTimeoutMs: config.AUDIT_WRITE_TIMEOUT_MS, retryMs: config.AUDIT_RETRY_MS, maintenanceMs: deps.maintenanceMs ?? 3_600_000,
      startDeadlineMs: Math.max(5000, config.AUDIT_WRITE_TIMEOUT_MS),
    },
  });
}
