import { Client } from 'pg';
import { AuditInterface, AuditRecord } from '../ports/audit-trail';
import { decodeMatch, monthBounds } from './audit-record-codec';
import { AuditReader, UsageRow, currentRecord, usageRows } from './audit-reader';
import { AUDIT_TABLE } from './postgres-audit-schema';

interface Row {
  id: string; time: Date; partner: string; interface: AuditInterface; operation: string; msisdn: string; code: string;
  http_status: number; txn_id: string | null; correlator: string; purpose: string | null; replayed: boolean; match: unknown;
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
    await client.connect();
    return new PostgresAuditReader(client);
  }

  async byMsisdn(msisdn: string, sinceMs: number, untilMs: number): Promise<AuditRecord[]> {
    const { rows } = await this.client.query<Row>(
      `SELECT * FROM ${AUDIT_TABLE} WHERE msisdn = $1 AND time >= $2 AND time < $3 ORDER BY time, id`,
      [msisdn, new Date(sinceMs), new Date(untilMs)]);
    return rows.map((r) => {
      const record: AuditRecord = {
        id: r.id, timeMs: r.time.getTime(), partner: r.partner, interface: r.interface, operation: r.operation, msisdn: r.msisdn,
        code: r.code, httpStatus: r.http_status, txnId: r.txn_id, correlator: r.correlator, purpose: r.purpose, replayed: r.replayed,
      };
      const match = decodeMatch(r.match);
      if (match !== undefined) record.match = match;
      return currentRecord(record);
    });
  }

  async usage(month: string, partner?: string): Promise<UsageRow[]> {
    const { startMs, endMs } = monthBounds(month);
    // Grouped with the interface too: an old operation name is mapped by it (usageRows), then merged.
    const { rows } = await this.client.query<{
      partner: string; interface: AuditInterface; operation: string; code: string; http_status: number; count: string; replayed: string;
    }>(
      `SELECT partner, interface, operation, code, http_status, count(*) AS count, count(*) FILTER (WHERE replayed) AS replayed
         FROM ${AUDIT_TABLE} WHERE time >= $1 AND time < $2 AND ($3::text IS NULL OR partner = $3)
         GROUP BY partner, interface, operation, code, http_status`,
      [new Date(startMs), new Date(endMs), partner ?? null]);
    return usageRows(rows.map((r) => ({
      partner: r.partner, interface: r.interface, operation: r.operation, code: r.code, httpStatus: r.http_status,
      count: Number(r.count), replayed: Number(r.replayed),
    })));
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}
