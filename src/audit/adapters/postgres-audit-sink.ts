import { Pool } from 'pg';
import { AuditRecord } from '../ports/audit-trail';
import { Logger } from '../../observability/logger';
import { encodeMatch, monthOf } from './audit-record-codec';
import { AuditSink } from './audit-sink';
import { AUDIT_TABLE, ensurePartition, maintainPartitions, migrateAuditSchema } from './postgres-audit-schema';

export interface PostgresAuditSinkOptions {
  url: string;
  retentionDays: number;
  /** Per-statement deadline, client side; a hung server must not hold a batch forever. */
  queryTimeoutMs: number;
  logger: Logger;
}

// One statement per batch whatever its size: thirteen array parameters, unnested server side.
const INSERT = `INSERT INTO ${AUDIT_TABLE}
  (id, time, partner, interface, operation, msisdn, code, http_status, txn_id, correlator, purpose, replayed, match)
  SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
    $8::smallint[], $9::text[], $10::text[], $11::text[], $12::boolean[], $13::jsonb[])
  ON CONFLICT DO NOTHING`;

/** no_partition_of_relation_found_for_row is reported as check_violation, which a CHECK constraint reports too. */
function isNoPartition(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return e.code === '23514' && typeof e.message === 'string' && e.message.includes('no partition');
}

/**
 * SQLSTATE classes 22 (data exception: a NUL in text, a value out of range) and 23 (integrity
 * constraint violation): the statement is refused for what it carries, and retrying it as it is
 * can never succeed. Anything else (connection lost, timeout, permissions, disk) is an outage.
 */
export function isDataError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

/**
 * The PostgreSQL audit store: schema migrated on first use (node-pg-migrate), month
 * partitions created ahead and on demand, batches inserted idempotently by id.
 */
export class PostgresAuditSink implements AuditSink {
  readonly kind = 'postgres';
  private readonly pool: Pool;
  private readonly months = new Set<string>();
  private migrated = false;
  /** The migration under way: a retry while it still runs waits for it instead of starting another. */
  private migrating: Promise<void> | undefined;

  constructor(private readonly opts: PostgresAuditSinkOptions) {
    this.pool = new Pool({
      connectionString: opts.url, max: 4, connectionTimeoutMillis: opts.queryTimeoutMs,
      query_timeout: opts.queryTimeoutMs, statement_timeout: opts.queryTimeoutMs,
      idleTimeoutMillis: 30_000, application_name: 'verify-customer-audit',
    });
    // A server restart breaks idle connections; the pool replaces them. Unhandled, this event would crash the process.
    this.pool.on('error', (err) => opts.logger.warn({ err: err.message }, 'audit database connection lost'));
  }

  /** Creates or migrates the schema; later calls are free once it has succeeded. */
  async init(): Promise<void> {
    if (this.migrated) return;
    this.migrating ??= migrateAuditSchema(this.opts.url, this.opts.queryTimeoutMs)
      .then((ran) => {
        if (ran.length > 0) this.opts.logger.info({ migrations: ran }, 'audit schema migrated');
        this.migrated = true;
      })
      .finally(() => { this.migrating = undefined; });
    await this.migrating;
  }

  async write(records: readonly AuditRecord[]): Promise<AuditRecord[]> {
    if (records.length === 0) return [];
    await this.init();
    for (const m of new Set(records.map((r) => monthOf(r.timeMs)))) {
      if (!this.months.has(m)) {
        await ensurePartition(this.pool, m);
        this.months.add(m);
      }
    }
    try {
      await this.insert(records);
      return [];
    } catch (err) {
      if (!isDataError(err) || isNoPartition(err)) throw this.forget(err);
    }
    // One record the store refuses must not hold back the others: each is tried on its own, and
    // only those refused for their content come back (to be quarantined). One statement per
    // record is slow, but this path runs only for a batch that holds a poison record.
    const refused: AuditRecord[] = [];
    for (const r of records) {
      try {
        await this.insert([r]);
      } catch (err) {
        if (!isDataError(err) || isNoPartition(err)) throw this.forget(err);
        refused.push(r);
      }
    }
    return refused;
  }

  private async insert(records: readonly AuditRecord[]): Promise<void> {
    const cols: unknown[][] = Array.from({ length: 13 }, () => []);
    for (const r of records) {
      const row = [r.id, new Date(r.timeMs).toISOString(), r.partner, r.interface, r.operation, r.msisdn, r.code,
        r.httpStatus, r.txnId, r.correlator, r.purpose, r.replayed, r.match === undefined ? null : JSON.stringify(encodeMatch(r.match))];
      for (let i = 0; i < 13; i++) cols[i].push(row[i]);
    }
    await this.pool.query(INSERT, cols);
  }

  /** A partition dropped behind our back (by hand, or another instance's retention): forget what we knew. */
  private forget(err: unknown): unknown {
    if (isNoPartition(err)) this.months.clear();
    return err;
  }

  async ping(): Promise<void> {
    await this.init();
    await this.pool.query('SELECT 1');
  }

  async maintain(nowMs: number): Promise<void> {
    await this.init();
    const { dropped } = await maintainPartitions(this.pool, nowMs, this.opts.retentionDays);
    for (const m of dropped) this.months.delete(m);
    if (dropped.length > 0) this.opts.logger.info({ months: dropped }, 'audit partitions past retention dropped');
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
