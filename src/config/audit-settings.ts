import { z } from 'zod';
import { SettingsOf, bool, int } from './setting-types';

/** The audit trail (CONTRACT §9, docs/audit.md). */
export const auditSettings = {
  /** Audit trail: PostgreSQL when set, else JSON lines under AUDIT_DIR. */
  AUDIT_DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL').optional(),
  /** The embedded store's files and the spool (both hold msisdns); one directory per instance. */
  AUDIT_DIR: z.string().min(1).default('./var'),
  /** Records are kept at least this long, then dropped with their month. */
  AUDIT_RETENTION_DAYS: int(1, 36_500, 395),
  /** true: answer 503 (9999) rather than serve a verification while the audit store cannot take records. */
  AUDIT_FAIL_CLOSED: bool(false),
  /** false: no audit trail at all, for benchmarks that measure its cost; warned about at start. */
  AUDIT_ENABLED: bool(true),
  /** Writer tuning: records per write, longest wait in memory, memory bound, write deadline, replay retry. */
  AUDIT_BATCH_MAX: int(1, 10_000, 500),
  AUDIT_FLUSH_MS: int(1, 600_000, 200),
  AUDIT_BUFFER_MAX: int(10, 1_000_000, 20_000),
  AUDIT_WRITE_TIMEOUT_MS: int(100, 60_000, 2000),
  AUDIT_RETRY_MS: int(50, 600_000, 1000),
};

export type AuditSettings = SettingsOf<typeof auditSettings>;
