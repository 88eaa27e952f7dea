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

/**
 * Usage buckets under today's operation names (as usageRows): a bucket an earlier version wrote
 * under an old name joins the one of the same bucket under the new name.
 */
export function currentBuckets(stored: Iterable<UsageBucketRow>): UsageBucketRow[] {
  const rows = new Map<string, UsageBucketRow>();
  for (const s of stored) {
    const operation = currentOperationName(s.interface as AuditInterface, s.operation);
    const key = JSON.stringify([s.startMs, s.partner, s.interface, operation, s.code, s.httpStatus]);
    const row = rows.get(key) ?? { ...s, operation, count: 0, replayed: 0 };
    row.count += s.count;
    row.replayed += s.replayed;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => a.startMs - b.startMs || compareUsage(a, b) || a.interface.localeCompare(b.interface));
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

/** The start of the UTC day or hour holding an instant. */
export function bucketStart(timeMs: number, interval: UsageInterval): number {
  const size = interval === 'day' ? 86_400_000 : 3_600_000;
  return Math.floor(timeMs / size) * size;
}

/** Newest first: time, then id, descending. */
export function newestFirst(a: AuditRecord, b: AuditRecord): number {
  return b.timeMs - a.timeMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}
