import { auditRows, kycLoad } from '../support/audit-db';
import { PostgresProcess, startPostgres } from '../../tools/process-kit/postgres-server';
import { startServiceProcess } from '../support/service-process';
import { until } from '../support/until';

describe('SIGTERM with audit records buffered', () => {
  let pg: PostgresProcess;
  beforeAll(async () => { pg = await startPostgres(); });
  afterAll(async () => { await pg?.destroy(); });

  it('when SIGTERM arrives, then every buffered record is written before the process exits', async () => {
    // Nothing is flushed by time or size: whatever reaches the database got there on SIGTERM.
    const svc = await startServiceProcess({ AUDIT_DATABASE_URL: pg.url, AUDIT_FLUSH_MS: '600000', AUDIT_BATCH_MAX: '10000', LOG_LEVEL: 'info' });
    const load = kycLoad(svc.url, 's', 4);
    const answered = load.answered;
    await until(() => answered.length >= 40, '40 answers before the signal', 30_000);
    expect(await auditRows(pg)).toEqual([]);
    svc.proc.kill('SIGTERM');
    expect(await svc.exited).toBe(0);
    await load.stop();
    const recorded = (await auditRows(pg)).map((r) => r.correlator);
    expect(recorded.length).toBe(answered.length);
    expect(new Set(recorded)).toEqual(new Set(answered));
  }, 60_000);
});
