import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFixtures, defaultFixturesPath } from '../../src/simulator/fixtures';
import { Simulator, createSimulator } from '../../src/simulator/simulator';
import { asAnswer, postJson, txnId } from '../support/harness';
import { startServiceProcess as startProcess } from '../support/service-process';
import { signedQuery } from '../support/signing';
import { until } from '../support/until';

const MAIN = join(__dirname, '../../dist/src/main.js');

describe('the service as a process', () => {
  it('when it runs on embedded defaults, then it prints one signed curl per operation that works when pasted', async () => {
    const svc = await startProcess({ LOG_LEVEL: 'info' });
    try {
      const commands = svc.output().split('\n').filter((l) => l.startsWith('TS='));
      expect(commands).toHaveLength(2);
      const answers = commands.map((c) => asAnswer(JSON.parse(execFileSync('bash', ['-c', c], { encoding: 'utf8' }))));
      expect(answers[0]).toEqual({ code: '00000', desc: 'Success', result: { msisdn: '255712000001', is_prepaid: 'true', is_active: 'true', is_valid: 'true' } });
      expect(answers[1].result).toMatchObject({ msisdn: '255712000006', sim_swapped: 'true' });
    } finally {
      svc.proc.kill('SIGTERM');
      await svc.exited;
    }
  });

  it('when SIGTERM arrives, then in-flight requests finish, new connections are refused and it exits 0', async () => {
    const sim: Simulator = createSimulator({ subscribers: loadFixtures(defaultFixturesPath()), synthetic: false });
    const simUrl = await sim.listen(0);
    const svc = await startProcess({ LOG_LEVEL: 'info', HLR_URL: `${simUrl}/hlr`, SIM_URL: `${simUrl}/sim` });
    try {
      sim.setFault('hlr', { latencyMs: 600 });
      const inFlight = Array.from({ length: 5 }, (_, i) =>
        postJson(`${svc.url}/eai/verify_customer/query/kyc?${signedQuery({ apiKey: 'demo-key', secret: 'demo-secret' })}`, { txn_id: txnId(), msisdn: `25571200000${i + 1}` }));
      // All five in flight: each has reached the slow HLR.
      await until(() => sim.calls().hlr >= 5, 'five lookups at the HLR', 5000);
      svc.proc.kill('SIGTERM');
      const replies = await Promise.all(inFlight);
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(await svc.exited).toBe(0);
      await expect(fetch(`${svc.url}/healthz`)).rejects.toThrow();
      expect(svc.output()).toMatch(/"msg":"stopped"/);
    } finally {
      await sim.close();
    }
  });

  it('when SIGHUP arrives, then partners are reloaded, and a bad new file leaves the registry in force', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vc-hup-'));
    const file = join(dir, 'partners.json');
    const bank = { name: 'bank', apiKey: 'bank-key', secret: 'bank-secret', operations: ['kyc'] };
    writeFileSync(file, JSON.stringify({ partners: [bank] }));
    const svc = await startProcess({ PARTNERS_FILE: file, LOG_LEVEL: 'info' });
    const call = (p: { apiKey: string; secret: string }) =>
      postJson(`${svc.url}/eai/verify_customer/query/kyc?${signedQuery(p)}`, { txn_id: txnId(), msisdn: '255712000001' });
    const hup = async (marker: RegExp) => {
      const seen = svc.output().match(new RegExp(marker, 'g'))?.length ?? 0;
      svc.proc.kill('SIGHUP');
      await until(() => (svc.output().match(new RegExp(marker, 'g'))?.length ?? 0) > seen, `${marker} after SIGHUP`, 10_000, 20);
    };
    try {
      const fintech = { name: 'fintech', apiKey: 'fin-key', secret: 'fin-secret', operations: ['kyc'] };
      expect((await call(fintech)).status).toBe(401);
      writeFileSync(file, JSON.stringify({ partners: [bank, fintech] }));
      await hup(/partners reloaded/);
      expect((await call(fintech)).status).toBe(200);

      writeFileSync(file, '{"partners": [ {"name": "broken", "secret": "do-not-log-me"');
      await hup(/partners reload failed/);
      expect((await call(fintech)).status).toBe(200);
      expect((await call(bank)).status).toBe(200);
      expect(svc.output()).not.toContain('do-not-log-me');
      expect(svc.output()).not.toContain('fin-secret');
    } finally {
      svc.proc.kill('SIGTERM');
      await svc.exited;
    }
  });

  it('when a setting is bad, then it stops at start with a message naming it', async () => {
    if (!existsSync(MAIN)) throw new Error('run "npm run build" first');
    const proc = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH, TIMEZONE: 'Mars/Olympus', PORT: '0' } });
    let err = '';
    proc.stderr.on('data', (d) => { err += d; });
    const code = await new Promise((resolve) => proc.once('exit', resolve));
    expect(code).toBe(1);
    expect(err).toMatch(/TIMEZONE/);
  });
});
