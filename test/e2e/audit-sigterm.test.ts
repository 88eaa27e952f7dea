import { randomUUID } from 'node:crypto';
import { auditRows } from '../support/audit-db';
import { postJson } from '../support/harness';
import { PostgresProcess, startPostgres } from '../../tools/process-kit/postgres-server';
import { startServiceProcess } from '../support/service-process';
import { DEMO, signedQuery, txnId } from '../support/signing';

describe('SIGTERM with audit records buffered', () => {
  let pg: PostgresProcess;
  beforeAll(async () => { pg = await startPostgres(); });
  afterAll(async () => { await pg?.destroy(); });

  it('writes every buffered record before the process exits', async () => {
    // Nothing is flushed by time or size: whatever reaches the database got there on SIGTERM.
    const svc = await startServiceProcess({ AUDIT_DATABASE_URL: pg.url, AUDIT_FLUSH_MS: '600000', AUDIT_BATCH_MAX: '10000', LOG_LEVEL: 'info' });
    const answered: string[] = [];
    let running = true;
    const client = async () => {
      while (running) {
        const correlator = randomUUID();
        try {
          const r = await postJson(`${svc.url}/eai/verify_customer/query/kyc?${signedQuery(DEMO)}`,
            { txn_id: txnId('s'), msisdn: '255712000002' }, { headers: { 'x-correlator': correlator } });
          if (r.status === 200) answered.push(correlator);
        } catch {
          return; // the listener is gone
        }
      }
    };
    const clients = Array.from({ length: 4 }, client);
    while (answered.length < 40) await new Promise((r) => setTimeout(r, 20));
    expect(await auditRows(pg)).toEqual([]);
    svc.proc.kill('SIGTERM');
    expect(await svc.exited).toBe(0);
    running = false;
    await Promise.all(clients);
    const recorded = (await auditRows(pg)).map((r) => r.correlator);
    expect(recorded.length).toBe(answered.length);
    expect(new Set(recorded)).toEqual(new Set(answered));
  }, 60_000);
});
