import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditRows, eventually, kycLoad } from '../support/audit-db';
import { PostgresProcess, startPostgres } from '../../tools/process-kit/postgres-server';
import { startServiceProcess } from '../support/service-process';
import { until } from '../support/until';

/*
 * SIGKILL gives the process no chance to flush anything: an answered request's record must
 * already be on disk (the write-ahead journal) when its answer leaves, and the next start
 * replays it. The store ignores ids it has, so nothing is doubled either.
 */
describe('SIGKILL under load with audit records in memory', () => {
  let pg: PostgresProcess;
  beforeAll(async () => { pg = await startPostgres(); });
  afterAll(async () => { await pg?.destroy(); });

  it('when the process is killed under load and started again, then every request answered 200 before the kill has exactly one row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vc-audit-kill-'));
    const env = { AUDIT_DATABASE_URL: pg.url, AUDIT_DIR: dir, AUDIT_RETRY_MS: '200' };
    const svc = await startServiceProcess(env);
    const load = kycLoad(svc.url, 'k', 8);
    const answered = load.answered;
    await until(() => answered.length >= 400, '400 answers before the kill', 60_000, 10);
    svc.proc.kill('SIGKILL');
    await svc.exited;
    await load.stop();
    const beforeRestart = new Set((await auditRows(pg)).map((r) => r.correlator));
    const missingBeforeRestart = answered.filter((c) => !beforeRestart.has(c)).length;

    const again = await startServiceProcess(env);
    try {
      await eventually(async () => {
        const ready = await (await fetch(`${again.url}/readyz`)).json() as { audit?: string };
        expect(ready.audit).toBe('postgres');
      }, 20_000);
      const perCorrelator = new Map<string, number>();
      for (const r of await auditRows(pg)) perCorrelator.set(r.correlator, (perCorrelator.get(r.correlator) ?? 0) + 1);
      expect(answered.filter((c) => perCorrelator.get(c) !== 1)).toEqual([]);
      expect([...perCorrelator.values()].every((n) => n === 1)).toBe(true);
      // The journal is gone once its records are in the store.
      expect(readdirSync(dir).filter((n) => n.startsWith('audit-journal-'))).toEqual([]);
      process.stderr.write(`sigkill: ${answered.length} answered, ${missingBeforeRestart} not in PostgreSQL at the kill, all recovered\n`);
    } finally {
      again.proc.kill('SIGTERM');
      await again.exited;
    }
  }, 90_000);
});
