import { monthOf } from '../../src/audit/adapters/audit-record-codec';
import { PostgresAuditSink } from '../../src/audit/adapters/postgres-audit-sink';
import { listPartitions } from '../../src/audit/adapters/postgres-audit-schema';
import { AuditRecord } from '../../src/audit/ports/audit-trail';
import { uuidV7 } from '../../src/kernel/uuid-v7';
import { createLogger } from '../../src/observability/logger';
import { PostgresProcess, startPostgres } from '../../tools/process-kit/postgres-server';
import { Pool } from 'pg';

const DAY = 86_400_000;

function record(timeMs: number, msisdn = '255712000001'): AuditRecord {
  return {
    id: uuidV7(timeMs), timeMs, partner: 'demo-bank', interface: 'legacy', operation: 'kyc', msisdn, code: '00000', httpStatus: 200,
    txnId: null, correlator: 'c', purpose: null, replayed: false,
  };
}

describe('audit partitions on PostgreSQL: retention drops whole months', () => {
  let pg: PostgresProcess;
  let sink: PostgresAuditSink;
  beforeAll(async () => {
    pg = await startPostgres();
    sink = new PostgresAuditSink({ url: pg.url, retentionDays: 395, queryTimeoutMs: 5000, logger: createLogger('silent') });
  });
  afterAll(async () => {
    await sink?.close();
    await pg?.destroy();
  });

  it('when a record is for any month or written twice, then its partition is created on demand and the duplicate ignored', async () => {
    const old = Date.UTC(2020, 4, 15);
    const r = record(old);
    await sink.write([r]);
    await sink.write([r, record(old + DAY)]);
    const rows = await pg.query<{ n: string }>(`SELECT count(*) AS n FROM audit_records_y2020m05`);
    expect(Number(rows[0].n)).toBe(2);
  });

  it('when maintenance runs, then months wholly older than AUDIT_RETENTION_DAYS are dropped, the rest kept, and the next months created ahead', async () => {
    const now = Date.UTC(2026, 10, 24, 12);
    const cutoff = now - 395 * DAY; // 2025-10-25
    const expired = [Date.UTC(2025, 8, 10), Date.UTC(2025, 9, 20)]; // September, and October before the cutoff: its month ends after it
    const kept = [Date.UTC(2025, 9, 31), Date.UTC(2026, 0, 5), Date.UTC(2026, 10, 1)];
    await sink.write([...expired, ...kept].map((t) => record(t, '255712000009')));
    await sink.maintain(now);

    const pool = new Pool({ connectionString: pg.url, max: 1 });
    const months = await listPartitions(pool).finally(() => pool.end());
    expect(months).not.toContain('2020-05');
    expect(months).not.toContain('2025-09');
    expect(months).toEqual(expect.arrayContaining(['2025-10', '2026-01', '2026-11', '2026-12', '2027-01']));
    expect(cutoff).toBeLessThan(Date.UTC(2025, 10, 1));
    const left = await pg.query<{ time: Date }>(`SELECT time FROM audit_records WHERE msisdn = '255712000009' ORDER BY time`);
    expect(left.map((r) => monthOf(r.time.getTime()))).toEqual(['2025-10', '2025-10', '2026-01', '2026-11']);
    // A record for a dropped month can still be written: its partition comes back on demand.
    await sink.write([record(Date.UTC(2025, 8, 11))]);
    expect(await pg.query(`SELECT 1 FROM audit_records_y2025m09`)).toHaveLength(1);
  });
});
