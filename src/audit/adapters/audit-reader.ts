import { AuditRecord } from '../ports/audit-trail';

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

/** Same order for both stores: partner, operation, code, status. */
export function compareUsage(a: UsageRow, b: UsageRow): number {
  return a.partner.localeCompare(b.partner) || a.operation.localeCompare(b.operation) ||
    a.code.localeCompare(b.code) || a.httpStatus - b.httpStatus;
}
