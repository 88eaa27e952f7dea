import { parseRfc3339 } from '../../kernel/rfc3339';
import { AuditInterface, AuditMatchSummary, AuditRecord } from '../ports/audit-trail';

const INTERFACES: ReadonlySet<string> = new Set<AuditInterface>(['legacy', 'graphql', 'camara']);

/** One JSON line; field names are the PostgreSQL column names, time as ISO 8601 UTC. */
export function encodeRecord(r: AuditRecord): string {
  return JSON.stringify({
    id: r.id, time: new Date(r.timeMs).toISOString(), partner: r.partner, interface: r.interface,
    operation: r.operation, msisdn: r.msisdn, code: r.code, http_status: r.httpStatus,
    txn_id: r.txnId, correlator: r.correlator, purpose: r.purpose, replayed: r.replayed,
    ...(r.match === undefined ? {} : { match: encodeMatch(r.match) }),
  });
}

/** The summary as stored (file line and PostgreSQL jsonb): the response's own word for "not available". */
export function encodeMatch(m: AuditMatchSummary): object {
  return { compared: m.compared, true: m.true, false: m.false, not_available: m.notAvailable };
}

/** A stored summary, or undefined for anything else. */
export function decodeMatch(v: unknown): AuditMatchSummary | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  const count = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0;
  if (!Array.isArray(o.compared) || !o.compared.every(str) || !count(o.true) || !count(o.false) || !count(o.not_available)) return undefined;
  return { compared: o.compared, true: o.true, false: o.false, notAvailable: o.not_available };
}

const str = (v: unknown): v is string => typeof v === 'string';
const strOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';

/** Parses a line written by encodeRecord; null for anything else (a torn last line after a crash). */
export function decodeRecord(line: string): AuditRecord | null {
  let o: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed !== 'object' || parsed === null) return null;
    o = parsed as Record<string, unknown>;
  } catch {
    return null;
  }
  const timeMs = parseRfc3339(o.time);
  if (!str(o.id) || timeMs === undefined || !str(o.partner) || !str(o.interface) || !INTERFACES.has(o.interface) ||
    !str(o.operation) || !str(o.msisdn) || !str(o.code) || typeof o.http_status !== 'number' ||
    !strOrNull(o.txn_id) || !str(o.correlator) || !strOrNull(o.purpose) || typeof o.replayed !== 'boolean') {
    return null;
  }
  const record: AuditRecord = {
    id: o.id, timeMs, partner: o.partner, interface: o.interface as AuditInterface, operation: o.operation,
    msisdn: o.msisdn, code: o.code, httpStatus: o.http_status, txnId: o.txn_id, correlator: o.correlator,
    purpose: o.purpose, replayed: o.replayed,
  };
  const match = decodeMatch(o.match);
  if (match !== undefined) record.match = match;
  return record;
}

/** `YYYY-MM` of an instant, in UTC: the month partition or file a record belongs to. */
export function monthOf(timeMs: number): string {
  return new Date(timeMs).toISOString().slice(0, 7);
}

/** First instant of a `YYYY-MM` month (UTC) and of the month after it. */
export function monthBounds(month: string): { startMs: number; endMs: number } {
  const [y, m] = month.split('-').map(Number);
  return { startMs: Date.UTC(y, m - 1, 1), endMs: Date.UTC(y, m, 1) };
}
