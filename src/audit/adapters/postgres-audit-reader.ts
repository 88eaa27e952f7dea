import { Client } from 'pg';
import { AuditInterface, AuditRecord } from '../ports/audit-trail';
import { decodeMatch, monthBounds } from './audit-record-codec';
import { AuditReader, AuditSearch, UsageBucketRow, UsageInterval, UsageRow } from './audit-reader';
import { AUDIT_TABLE } from './postgres-audit-schema';

interface Row {
  id: string; time: Date; partner: string; interface: AuditInterface; operation: string; msisdn: string; code: string;
  http_status: number; txn_id: string | null; correlator: string; purpose: string | null; replayed: boolean; match: unknown;
}

function toRecord(r: Row): AuditRecord {
  const record: AuditRecord = {
    id: r.id, timeMs: r.time.getTime(), partner: r.partner, interface: r.interface, operation: r.operation, msisdn: r.msisdn,
    code: r.code, httpStatus: r.http_status, txnId: r.txn_id, correlator: r.correlator, purpose: r.purpose, replayed: r.replayed,
  };
  const match = decodeMatch(r.match);
  if (match !== undefined) record.match = match;
  return record;
}

/** Reads the PostgreSQL store; the role it connects as needs only SELECT on audit_records (docs/audit.md). */
export class PostgresAuditReader implements AuditReader {
  private constructor(private readonly client: Client) {}

  static async connect(url: string): Promise<PostgresAuditReader> {
    // A server that accepts and never answers must not hang the operator's terminal: bounded
    // connect; queries get minutes (a month's usage on a large store is a long scan).
    const client = new Client({
      connectionString: url, application_name: 'verify-customer-cli',
      connectionTimeoutMillis: 10_000, query_timeout: 300_000, statement_timeout: 300_000,
    });
    // A connection lost between queries is reported as an 'error' event, which would end the
    // process unheard (the service keeps readers for the admin API): the next query fails instead.
    client.on('error', () => {});
    await client.connect();
    return new PostgresAuditReader(client);
  }

  async byMsisdn(msisdn: string, sinceMs: number, untilMs: number): Promise<AuditRecord[]> {
    const { rows } = await this.client.query<Row>(
      `SELECT * FROM ${AUDIT_TABLE} WHERE msisdn = $1 AND time >= $2 AND time < $3 ORDER BY time, id`,
      [msisdn, new Date(sinceMs), new Date(untilMs)]);
    return rows.map(toRecord);
  }

  async search(q: AuditSearch): Promise<AuditRecord[]> {
    const { rows } = await this.client.query<Row>(
      `SELECT * FROM ${AUDIT_TABLE} WHERE time >= $1 AND time < $2 AND ($3::text IS NULL OR msisdn = $3) AND ($4::text IS NULL OR partner = $4)
         AND ($5::timestamptz IS NULL OR (time, id) < ($5, $6::uuid)) ORDER BY time DESC, id DESC LIMIT $7`,
      [new Date(q.sinceMs), new Date(q.untilMs), q.msisdn ?? null, q.partner ?? null,
        q.before ? new Date(q.before.timeMs) : null, q.before?.id ?? null, q.limit]);
    return rows.map(toRecord);
  }

  async usageBuckets(sinceMs: number, untilMs: number, interval: UsageInterval, partner?: string): Promise<UsageBucketRow[]> {
    const { rows } = await this.client.query<{
      start: Date; partner: string; interface: string; operation: string; code: string; http_status: number; count: string; replayed: string;
    }>(
      `SELECT date_trunc($3, time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS start, partner, interface, operation, code, http_status,
              count(*) AS count, count(*) FILTER (WHERE replayed) AS replayed
         FROM ${AUDIT_TABLE} WHERE time >= $1 AND time < $2 AND ($4::text IS NULL OR partner = $4)
         GROUP BY 1, partner, interface, operation, code, http_status ORDER BY 1, partner, operation, code, http_status, interface`,
      [new Date(sinceMs), new Date(untilMs), interval, partner ?? null]);
    return rows.map((r) => ({
      startMs: r.start.getTime(), partner: r.partner, interface: r.interface, operation: r.operation, code: r.code, httpStatus: r.http_status,
      count: Number(r.count), replayed: Number(r.replayed),
    }));
  }

  async usage(month: string, partner?: string): Promise<UsageRow[]> {
    const { startMs, endMs } = monthBounds(month);
    const { rows } = await this.client.query<{ partner: string; operation: string; code: string; http_status: number; count: string; replayed: string }>(
      `SELECT partner, operation, code, http_status, count(*) AS count, count(*) FILTER (WHERE replayed) AS replayed
         FROM ${AUDIT_TABLE} WHERE time >= $1 AND time < $2 AND ($3::text IS NULL OR partner = $3)
         GROUP BY partner, operation, code, http_status ORDER BY partner, operation, code, http_status`,
      [new Date(startMs), new Date(endMs), partner ?? null]);
    return rows.map((r) => ({
      partner: r.partner, operation: r.operation, code: r.code, httpStatus: r.http_status, count: Number(r.count), replayed: Number(r.replayed),
    }));
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}
