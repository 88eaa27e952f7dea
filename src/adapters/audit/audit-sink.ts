import { AuditRecord } from '../../domain/ports/audit-trail';

/** An audit store: takes batches, idempotently by record id where it can. */
export interface AuditSink {
  readonly kind: 'file' | 'postgres';
  /** Writes a batch; rejects when the store cannot take it (the caller spools it). */
  write(records: readonly AuditRecord[]): Promise<void>;
  /** Resolves when the store can take writes (a degraded writer asks before it trusts the store again). */
  ping(): Promise<void>;
  /** Retention and partitions; run at start and periodically. */
  maintain(nowMs: number): Promise<void>;
  close(): Promise<void>;
}
