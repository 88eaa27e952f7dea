import { Pool } from 'pg';
import { AuditRecord } from '../../domain/ports/audit-trail';
import { Logger } from '../../observability/logger';
import { monthOf } from './audit-record-codec';
import { AuditSink } from './audit-sink';
import { AUDIT_TABLE, ensurePartition, maintainPartitions, migrateAuditSchema } from './postgres-audit-schema';

export interface PostgresAuditSinkOptions {
  url: string;
  retentionDays: number;
  /** Per-statement deadline, client side; a hung server must not hold a batch forever. */
  queryTimeoutMs: number;
  logger: Logger;
}

// One statement per batch whatever its size: twelve array parameters, unnested server side.
const INSERT = `INSERT INTO ${AUDIT_TABLE}
  (id, time, partner, interface, operation, msisdn, code, http_status, txn_id, correlator, purpose, replayed)
  SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
    $8::smallint[], $9::text[], $10::text[], $11::text[], $12::boolean[])
  ON CONFLICT DO NOTHING`;

/** no_partition_of_relation_found_for_row is reported as check_violation. */
const NO_PARTITION = '23514';

/**
 * The PostgreSQL audit store: schema migrated on first use (node-pg-migrate), month
 * partitions created ahead and on demand, batches inserted idempotently by id.
 */
export class PostgresAuditSink implements AuditSink {
  readonly kind = 'postgres';
  private readonly pool: Pool;
  private readonly months = new Set<string>();
  private migrated = false;

  constructor(private readonly opts: PostgresAuditSinkOptions) {
    this.pool = new Pool({
      connectionString: opts.url, max: 4, connectionTimeoutMillis: opts.queryTimeoutMs,
      query_timeout: opts.queryTimeoutMs, idleTimeoutMillis: 30_000, application_name: 'verify-customer-audit',
    });
    // A server restart breaks idle connections; the pool replaces them. Unhandled, this event would crash the process.
    this.pool.on('error', (err) => opts.logger.warn({ err: err.message }, 'audit database connection lost'));
  }

  /** Creates or migrates the schema; later calls are free once it has succeeded. */
  async init(): Promise<void> {
    if (this.migrated) return;
    const ran = await migrateAuditSchema(this.opts.url);
    if (ran.length > 0) this.opts.logger.info({ migrations: ran }, 'audit schema migrated');
    this.migrated = true;
  }

  async write(records: readonly AuditRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.init();
    for (const m of new Set(records.map((r) => monthOf(r.timeMs)))) {
      if (!this.months.has(m)) {
        await ensurePartition(this.pool, m);
        this.months.add(m);
      }
    }
    const cols: unknown[][] = Array.from({ length: 12 }, () => []);
    for (const r of records) {
      const row = [r.id, new Date(r.timeMs).toISOString(), r.partner, r.interface, r.operation, r.msisdn, r.code,
        r.httpStatus, r.txnId, r.correlator, r.purpose, r.replayed];
      for (let i = 0; i < 12; i++) cols[i].push(row[i]);
    }
    try {
      await this.pool.query(INSERT, cols);
    } catch (err) {
      // A partition dropped behind our back (by hand, or another instance's retention): forget what we knew.
      if ((err as { code?: string }).code === NO_PARTITION) this.months.clear();
      throw err;
    }
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
