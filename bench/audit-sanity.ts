import { PostgresProcess } from '../tools/process-kit/postgres-server';
import { auditRecordCount } from './audit-postgres';
import { RunningTarget, scrapeCounters } from './stack';

/** After S1+auditPG: what its service answered against what reached PostgreSQL. */
export interface AuditSanity {
  /** Requests the 'auditpg' service answered (its verify_requests_total: warm-ups, preflights and in-flight-at-stop included). */
  answered: number;
  /** Rows in audit_records. */
  rows: number;
  /** verify_audit_records_total by outcome (written, spooled, replayed, dropped). */
  outcomes: Record<string, number>;
  /** Records still in memory when counted (after waiting up to 10 s for the writer). */
  buffered: number;
  /** Rows beyond the answered count allowed: requests cut off when the load generator stopped (see below). */
  inFlightAllowance: number;
  ok: boolean;
}

const sum = (m: Map<string, number>, name: string) => [...m].filter(([k]) => k.startsWith(name)).reduce((a, [, v]) => a + v, 0);

/**
 * Waits for the writer's buffer to drain, then counts: every answered request must be one row,
 * every record written (rows = the `written` counter), none spooled or dropped. A request still
 * in flight when the load generator stops (end of a warm-up or of a measured slice) is verified
 * and recorded, but its socket closes before the answer's 'finish', so verify_requests_total
 * never counts it: rows may exceed `answered` by at most the connections open at those stops.
 */
export async function checkAuditRecords(target: RunningTarget, pg: PostgresProcess, inFlightAllowance: number): Promise<AuditSanity> {
  const names = ['verify_requests_total', 'verify_audit_records_total', 'verify_audit_buffered_records'];
  let m = await scrapeCounters(target.url, names);
  for (let i = 0; i < 50 && sum(m, 'verify_audit_buffered_records') > 0; i++) {
    await new Promise((r) => setTimeout(r, 200));
    m = await scrapeCounters(target.url, names);
  }
  const outcomes: Record<string, number> = {};
  for (const [k, v] of m) {
    const o = /^verify_audit_records_total\{outcome="([^"]+)"\}/.exec(k);
    if (o) outcomes[o[1]] = v;
  }
  const answered = sum(m, 'verify_requests_total');
  const rows = await auditRecordCount(pg);
  const buffered = sum(m, 'verify_audit_buffered_records');
  const extra = rows - answered;
  const ok = rows === outcomes.written && extra >= 0 && extra <= inFlightAllowance && buffered === 0 && !outcomes.spooled && !outcomes.dropped;
  return { answered, rows, outcomes, buffered, inFlightAllowance, ok };
}
