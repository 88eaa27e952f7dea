import { currentOperationName } from '../audit-operation';
import { AuditInterface, AuditRecord } from '../ports/audit-trail';

/** One line of the usage report: billable counts per partner, operation and outcome. */
export interface UsageRow {
  partner: string;
  operation: string;
  code: string;
  httpStatus: number;
  count: number;
  /** Of `count`, how many were replays of a stored answer (no upstream lookup). */
  replayed: number;
}

/** The two questions of CONTRACT §9, against whichever store holds the records. */
export interface AuditReader {
  /** Who asked about this number, oldest first, within [sinceMs, untilMs). */
  byMsisdn(msisdn: string, sinceMs: number, untilMs: number): Promise<AuditRecord[]>;
  /** A month's (YYYY-MM, UTC) counts, optionally for one partner. */
  usage(month: string, partner?: string): Promise<UsageRow[]>;
  close(): Promise<void>;
}

/** Counts as a store groups them, before old operation names are mapped (they group with `interface`). */
export interface StoredUsage extends UsageRow {
  interface: AuditInterface;
}

/**
 * The usage rows under today's operation names (audit-operation.ts): a name an earlier version
 * wrote is mapped, and its counts join those of the records written under the new name.
 */
export function usageRows(stored: Iterable<StoredUsage>): UsageRow[] {
  const rows = new Map<string, UsageRow>();
  for (const s of stored) {
    const operation = currentOperationName(s.interface, s.operation);
    const key = JSON.stringify([s.partner, operation, s.code, s.httpStatus]);
    const row = rows.get(key) ?? { partner: s.partner, operation, code: s.code, httpStatus: s.httpStatus, count: 0, replayed: 0 };
    row.count += s.count;
    row.replayed += s.replayed;
    rows.set(key, row);
  }
  return [...rows.values()].sort(compareUsage);
}

/** A stored record as the readers return it: its operation under today's name. */
export function currentRecord(r: AuditRecord): AuditRecord {
  const operation = currentOperationName(r.interface, r.operation);
  return operation === r.operation ? r : { ...r, operation };
}

/** Same order for both stores: partner, operation, code, status. */
export function compareUsage(a: UsageRow, b: UsageRow): number {
  return a.partner.localeCompare(b.partner) || a.operation.localeCompare(b.operation) ||
    a.code.localeCompare(b.code) || a.httpStatus - b.httpStatus;
}
