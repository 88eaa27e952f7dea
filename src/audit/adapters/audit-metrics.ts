/**
 * What became of audit records: written to the store, spooled locally, replayed from the spool,
 * quarantined (refused by the store for their content, kept in a local file), or dropped.
 */
export type AuditRecordOutcome = 'written' | 'spooled' | 'replayed' | 'quarantined' | 'dropped';

/** What the audit writer reports; the Prometheus module implements it. */
export interface AuditMetrics {
  auditRecords(outcome: AuditRecordOutcome, count: number): void;
  /** Records waiting in memory and in the spool, read at scrape time. */
  trackAuditBacklog(source: () => { buffered: number; spooled: number; degraded: boolean }): void;
}

export const noopAuditMetrics: AuditMetrics = { auditRecords() {}, trackAuditBacklog() {} };
