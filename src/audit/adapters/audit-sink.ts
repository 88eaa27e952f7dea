import { AuditRecord } from '../ports/audit-trail';

/** An audit store: takes batches, idempotently by record id where it can. */
export interface AuditSink {
  readonly kind: 'file' | 'postgres';
  /**
   * Writes a batch; rejects when the store cannot take it (the caller spools it). Resolves with
   * the records the store refused for their content (a data error, not an outage): every other
   * record of the batch is written, and the caller quarantines these instead of retrying them.
   */
  write(records: readonly AuditRecord[]): Promise<AuditRecord[]>;
  /** Resolves when the store can take writes (a degraded writer asks before it trusts the store again). */
  ping(): Promise<void>;
  /** Retention and partitions; run at start and periodically. */
  maintain(nowMs: number): Promise<void>;
  close(): Promise<void>;
}
