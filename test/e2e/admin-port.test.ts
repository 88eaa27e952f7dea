import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { asAnswer, postJson, txnId } from '../support/harness';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { DEMO, signedQuery } from '../support/signing';

/*
 * ADMIN_PORT (CONTRACT §4): the probes, /metrics and /internal/events/* on a listener of their
 * own, which the partners' port then answers as any unknown route. The built service as a
 * real process, so the start output and SIGTERM are the ones an operator sees.
 */

const MAIN = join(__dirname, '../../dist/src/main.js');
const EVENTS_TOKEN = 'admin-port-events-token';
const ADMIN_PATHS = ['GET /healthz', 'GET /readyz', 'GET /metrics', 'POST /internal/events/sim-swap'] as const;

interface Answer { status: number; body: string; contentType: string }

async function call(base: string, route: string): Promise<Answer> {
  const [method = 'GET', path = '/'] = route.split(' ');
  const res = await fetch(`${base}${path}`, {
    method,
    headers: method === 'POST' ? { 'content-type': 'application/json', authorization: `Bearer ${EVENTS_TOKEN}` } : {},
    ...(method === 'POST' ? { body: JSON.stringify({ msisdn: '255712000001' }) } : {}),
    signal: AbortSignal.timeout(5000),
  });
  return { status: res.status, body: await res.text(), contentType: res.headers.get('content-type') ?? '' };
}

function adminUrlOf(svc: ServiceProcess): string {
  const m = /"adminUrl":"(http:\/\/[^"]+)"/.exec(svc.output());
  if (!m?.[1]) throw new Error(`no adminUrl in the start output:\n${svc.output()}`);
  return m[1];
}

async function stop(svc: ServiceProcess): Promise<number | null> {
  svc.proc.kill('SIGTERM');
  return svc.exited;
}

/** Runs the built service until it exits (a bad setting); killed after 10 s if it does not. */
function runToExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" first`);
  const proc = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env } });
  let stderr = '';
  let stdout = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  proc.stdout.on('data', (d) => { stdout += d; });
  const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
  return new Promise((resolve) => proc.once('exit', (code) => {
    clearTimeout(timer);
    resolve({ code, stderr, stdout });
  }));
}

describe('the admin port (ADMIN_PORT)', () => {
  it('when ADMIN_PORT is set, then the probes, /metrics and the events route answer there and 404 on the partners\' port, as an unknown route does', async () => {
    const svc = await startServiceProcess({ LOG_LEVEL: 'info', ADMIN_PORT: '0', EVENTS_TOKEN });
    try {
      const admin = adminUrlOf(svc);
      expect(admin).not.toBe(svc.url);
      expect(svc.output()).toContain(`admin port (/healthz, /readyz, /metrics, /internal/events/*): ${admin}`);

      const onAdmin = await Promise.all(ADMIN_PATHS.map((r) => call(admin, r)));
      expect(onAdmin.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect(JSON.parse(onAdmin[1]?.body ?? '')).toMatchObject({ status: 'ready' });
      expect(onAdmin[2]?.body).toMatch(/^# HELP /m);
      expect(JSON.parse(onAdmin[3]?.body ?? '')).toEqual({ code: '00000', desc: 'Success' });

      const unknown = await call(svc.url, 'GET /no-such-route');
      expect(unknown.status).toBe(404);
      const onPartners = await Promise.all(ADMIN_PATHS.map((r) => call(svc.url, r)));
      for (const [i, a] of onPartners.entries()) expect({ route: ADMIN_PATHS[i], ...a }).toEqual({ route: ADMIN_PATHS[i], ...unknown });

      // The partners' operations stay on the partners' port, and only there.
      const kyc = `/eai/verify_customer/query/kyc?${signedQuery(DEMO)}`;
      const served = await postJson(`${svc.url}${kyc}`, { txn_id: txnId(), msisdn: '255712000001' });
      expect(asAnswer(served.body).code).toBe('00000');
      const elsewhere = await fetch(`${admin}${kyc}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ txn_id: txnId(), msisdn: '255712000001' }) });
      expect(elsewhere.status).toBe(404);
    } finally {
      await stop(svc);
    }
  });

  it('when the service has said it is listening, then everything it announces at start came before, and that line is the last', async () => {
    // Read the output at the moment the listening line is seen, as a supervisor would; no request is sent first.
    const svc = await startServiceProcess({ LOG_LEVEL: 'info', ADMIN_PORT: '0' });
    try {
      const lines = svc.output().split('\n').filter((l) => l.trim() !== '');
      const listening = lines.findIndex((l) => l.includes('"msg":"verify-customer listening"'));
      expect(listening).toBeGreaterThanOrEqual(0);
      const admin = lines.findIndex((l) => l.startsWith('verify-customer admin port (/healthz, /readyz, /metrics, /internal/events/*): http://'));
      const demo = lines.findIndex((l) => l.startsWith('verify-customer is up on '));
      expect(admin).toBeGreaterThanOrEqual(0);
      expect(demo).toBeGreaterThanOrEqual(0);
      expect(admin).toBeLessThan(listening);
      expect(demo).toBeLessThan(listening);
      expect(lines.slice(listening + 1)).toEqual([]);
    } finally {
      await stop(svc);
    }
  });

  it('when ADMIN_PORT is unset, then the probes, /metrics and the events route answer on the partners\' port as before', async () => {
    const svc = await startServiceProcess({ LOG_LEVEL: 'info', EVENTS_TOKEN });
    try {
      expect(svc.output()).not.toMatch(/adminUrl|admin port/);
      const answers = await Promise.all(ADMIN_PATHS.map((r) => call(svc.url, r)));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    } finally {
      await stop(svc);
    }
  });

  it('when SIGTERM arrives, then both listeners close and the process exits 0', async () => {
    const svc = await startServiceProcess({ LOG_LEVEL: 'info', ADMIN_PORT: '0' });
    let admin: string;
    try {
      admin = adminUrlOf(svc);
      expect((await call(admin, 'GET /healthz')).status).toBe(200);
    } finally {
      expect(await stop(svc)).toBe(0);
    }
    await expect(fetch(`${svc.url}/eai/verify_customer/query/kyc`, { method: 'POST' })).rejects.toThrow();
    await expect(fetch(`${admin}/healthz`)).rejects.toThrow();
    expect(svc.output()).toMatch(/"msg":"stopped"/);
  });

  it.each([
    ['equal to PORT', { PORT: '18471', ADMIN_PORT: '18471' }, /ADMIN_PORT: must differ from PORT/],
    ['out of range', { PORT: '0', ADMIN_PORT: '65536' }, /ADMIN_PORT: .*65535/],
    ['not plain digits', { PORT: '0', ADMIN_PORT: '0x50' }, /ADMIN_PORT: must be a whole number/],
    ['ADMIN_HOST without ADMIN_PORT', { PORT: '0', ADMIN_HOST: '127.0.0.1' }, /ADMIN_HOST: needs ADMIN_PORT/],
  ])('when the admin setting is %s, then the service refuses to start and names the variable', async (_what, env, message) => {
    const run = await runToExit(env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).not.toMatch(/listening/);
  });
});
