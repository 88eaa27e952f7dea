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

/** Counts of one UTC day or hour (the admin API's usage and overview, CONTRACT §12). */
export interface UsageBucketRow extends UsageRow {
  /** The bucket's start, epoch ms. */
  startMs: number;
  interface: string;
}

export type UsageInterval = 'day' | 'hour';

/** The admin API's audit search: at least one of msisdn and partner; newest first. */
export interface AuditSearch {
  msisdn?: string;
  partner?: string;
  sinceMs: number;
  untilMs: number;
  /** Only records older than this one (the previous page's last), in (time, id) order. */
  before?: { timeMs: number; id: string };
  limit: number;
}

/** The two questions of CONTRACT §9, against whichever store holds the records. */
export interface AuditReader {
  /** Records newest first, (time, id) descending, within [sinceMs, untilMs). */
  search(q: AuditSearch): Promise<AuditRecord[]>;
  /** Counts per UTC day or hour, partner, interface, operation and outcome within [sinceMs, untilMs). */
  usageBuckets(sinceMs: number, untilMs: number, interval: UsageInterval, partner?: string): Promise<UsageBucketRow[]>;
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

/** The start of the UTC day or hour holding an instant. */
export function bucketStart(timeMs: number, interval: UsageInterval): number {
  const size = interval === 'day' ? 86_400_000 : 3_600_000;
  return Math.floor(timeMs / size) * size;
}

/** Newest first: time, then id, descending. */
export function newestFirst(a: AuditRecord, b: AuditRecord): number {
  return b.timeMs - a.timeMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}
