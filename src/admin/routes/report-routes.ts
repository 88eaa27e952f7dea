import { Router } from 'express';
import { AuditReader, UsageBucketRow } from '../../audit/adapters/audit-reader';
import { Clock } from '../../kernel/clock';
import { parseRfc3339 } from '../../kernel/rfc3339';
import { parseFullDate } from '../../kernel/zoned-date';
import { Logger } from '../../observability/logger';
import { MsisdnNormaliser } from '../../kernel/msisdn';
import { adminLocals, requireRole } from './admin-auth';
import { auditQuery, parse, usageQuery } from './admin-schemas';
import { AdminProblem } from './problem';

const DAY_MS = 86_400_000;
const MAX_RANGE_MS = { day: 366 * DAY_MS, hour: 31 * DAY_MS };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface ReportDeps {
  clock: Clock;
  logger: Logger;
  normalise: MsisdnNormaliser;
  /** Runs a query against the audit store (a reader opened for it and closed after). */
  withReader<T>(fn: (reader: AuditReader) => Promise<T>): Promise<T>;
}

/** An RFC 3339 date (midnight UTC) or date-time with a zone; a 400 naming the parameter otherwise. */
export function instant(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const ms = parseRfc3339(parseFullDate(value) === undefined ? value : `${value}T00:00:00Z`);
  if (ms === undefined) throw new AdminProblem(400, `${name} must be an RFC 3339 date or date-time`, 'about:blank', [{ field: name, message: 'must be an RFC 3339 date (2026-11-01) or date-time with a zone' }]);
  return ms;
}

function range(q: { from?: string; to?: string }, now: number, defaultSpanMs: number | undefined): { sinceMs: number; untilMs: number } {
  const untilMs = instant('to', q.to, now);
  const sinceMs = instant('from', q.from, defaultSpanMs === undefined ? 0 : untilMs - defaultSpanMs);
  if (sinceMs >= untilMs) throw new AdminProblem(400, 'from must be before to', 'about:blank', [{ field: 'from', message: 'must be before to' }]);
  return { sinceMs, untilMs };
}

/** The cursor of a page: the last record's (time, id), opaque to the caller. */
function encodeCursor(timeMs: number, id: string): string {
  return Buffer.from(JSON.stringify([timeMs, id])).toString('base64url');
}

function decodeCursor(cursor: string): { timeMs: number; id: string } {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && Number.isSafeInteger(v[0]) && typeof v[1] === 'string' && UUID.test(v[1])) return { timeMs: v[0] as number, id: v[1] };
  } catch { /* answered below */ }
  throw new AdminProblem(400, 'cursor is not one this API gave', 'about:blank', [{ field: 'cursor', message: 'must be a nextCursor of an earlier page' }]);
}

/** The usage rows of the API: the buckets' counts, the interface folded in (partners bill per operation). */
function usageRows(rows: UsageBucketRow[]) {
  const out = new Map<string, { start: string; partner: string; operation: string; code: string; httpStatus: number; count: number; replayed: number }>();
  for (const r of rows) {
    const key = JSON.stringify([r.startMs, r.partner, r.operation, r.code, r.httpStatus]);
    const row = out.get(key) ?? { start: new Date(r.startMs).toISOString(), partner: r.partner, operation: r.operation, code: r.code, httpStatus: r.httpStatus, count: 0, replayed: 0 };
    row.count += r.count;
    row.replayed += r.replayed;
    out.set(key, row);
  }
  return [...out.values()];
}

/** Usage (viewer) and the audit search (compliance), from the audit store (CONTRACT §9, §12). */
export function reportRoutes(deps: ReportDeps): Router {
  const router = Router();

  router.get('/usage', requireRole('viewer'), async (req, res) => {
    const q = parse(usageQuery, req.query, 'query');
    const interval = q.interval ?? 'day';
    const { sinceMs, untilMs } = range(q, deps.clock.nowMs(), 7 * DAY_MS);
    if (untilMs - sinceMs > MAX_RANGE_MS[interval]) {
      throw new AdminProblem(400, `at most ${MAX_RANGE_MS[interval] / DAY_MS} days per query by ${interval}`, 'about:blank', [{ field: 'from', message: 'range too long' }]);
    }
    const rows = await deps.withReader((r) => r.usageBuckets(sinceMs, untilMs, interval, q.partner));
    res.json({
      from: new Date(sinceMs).toISOString(), to: new Date(untilMs).toISOString(), interval, ...(q.partner ? { partner: q.partner } : {}), rows: usageRows(rows),
    });
  });

  router.get('/audit', requireRole('compliance'), async (req, res) => {
    const q = parse(auditQuery, req.query, 'query');
    if (q.msisdn === undefined && q.partner === undefined) {
      throw new AdminProblem(400, 'give msisdn, partner or both', 'about:blank', [{ field: 'msisdn', message: 'msisdn or partner is required' }]);
    }
    let msisdn: string | undefined;
    if (q.msisdn !== undefined) {
      msisdn = deps.normalise(q.msisdn) ?? undefined;
      if (msisdn === undefined) throw new AdminProblem(400, 'msisdn is not a valid number here', 'about:blank', [{ field: 'msisdn', message: 'not a valid number for COUNTRY_CODE and NSN_LENGTH' }]);
    }
    const { sinceMs, untilMs } = range(q, deps.clock.nowMs() + DAY_MS, undefined);
    const limit = q.limit ?? 50;
    const before = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
    // Who searched is logged; the number never is (a compliance search is itself sensitive).
    deps.logger.info({ subject: adminLocals(res).principal.subject, byMsisdn: msisdn !== undefined, partner: q.partner }, 'admin audit search');
    const records = await deps.withReader((r) => r.search({
      ...(msisdn === undefined ? {} : { msisdn }), ...(q.partner === undefined ? {} : { partner: q.partner }), sinceMs, untilMs, limit: limit + 1,
      ...(before ? { before } : {}),
    }));
    const page = records.slice(0, limit);
    const last = page[page.length - 1];
    res.json({
      items: page.map(({ timeMs, ...r }) => ({ ...r, time: new Date(timeMs).toISOString() })),
      ...(records.length > limit && last ? { nextCursor: encodeCursor(last.timeMs, last.id) } : {}),
    });
  });
  return router;
}
