import http from 'node:http';
import { AddressInfo } from 'node:net';
import { BombEncoding, compressionBombs } from '../support/compression-bombs';
import { fetchToken } from '../support/oauth';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { postJson, txnId } from '../support/harness';
import { DEMO, signedQuery } from '../support/signing';
import { until } from '../support/until';
import { peakRssMb, rssMb } from '../../tools/process-kit/proc-stats';

/*
 * Upstream replies are untrusted bytes (CONTRACT §3), against the built service as a process
 * of its own (its RSS is measured) and HLR, SIM management and customer records played by a
 * server of the test's own: compression bombs (br, gzip, deflate; 252 bytes of br inflate to
 * 200 MB) and 200s about another number get 503 (CAMARA UNAVAILABLE, legacy 9999), are counted,
 * are logged without their body, and /healthz keeps answering throughout.
 */

jest.setTimeout(120_000);

type System = 'hlr' | 'sim' | 'crm';
type Mode = 'good' | 'other' | BombEncoding;
const OTHER = '255712000099';

let bombs: Record<BombEncoding, Buffer>;
/** What each system answers now (the other two answer good records). */
const modes: Record<System, Mode> = { hlr: 'good', sim: 'good', crm: 'good' };
let upstream: http.Server;
let svc: ServiceProcess;
let token: string;

function record(system: System, msisdn: string): object {
  if (system === 'hlr') return { msisdn, status: 'active', paymentType: 'prepaid', activatedAt: '2015-01-01T00:00:00Z' };
  if (system === 'sim') return { msisdn, iccid: '8925500000000000015', lastSimSwapAt: null };
  return { msisdn, givenName: 'Amani' };
}

function answer(req: http.IncomingMessage, res: http.ServerResponse): void {
  const m = /^\/(hlr|sim|crm)\/subscribers\/(\d+)/.exec(req.url ?? '');
  if (!m) { res.writeHead(500).end(); return; }
  const system = m[1] as System;
  const mode = modes[system];
  if (mode === 'good' || mode === 'other') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(record(system, mode === 'other' ? OTHER : m[2])));
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': mode }).end(bombs[mode]);
}

/** The service's resident memory and its peak so far, in MiB. */
function memoryMb(): { rss: number; peak: number } {
  const pid = svc.proc.pid ?? 0;
  return { rss: rssMb(pid) ?? NaN, peak: peakRssMb(pid) ?? NaN };
}

let seq = 0;
const freshPhone = () => `+2557129${String((seq += 1)).padStart(5, '0')}`;

/** One CAMARA request whose answer needs `system`: KYC Tenure (HLR), retrieve-date (SIM), KYC Match (customer records). */
async function ask(system: System): Promise<{ status: number; body: { code?: string } }> {
  const [path, body] = {
    hlr: ['/kyc-tenure/v0.2/check-tenure', { tenureDate: '2020-01-01' }],
    sim: ['/sim-swap/v2/retrieve-date', {}],
    crm: ['/kyc-match/v0.4/match', { givenName: 'Amani' }],
  }[system] as [string, object];
  const res = await fetch(`${svc.url}${path}`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ phoneNumber: freshPhone(), ...body }),
  });
  return { status: res.status, body: await res.json() as { code?: string } };
}

async function metric(name: string, labels: string): Promise<number> {
  const text = await (await fetch(`${svc.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && labels.split(',').every((p) => l.includes(p)));
  return Number(line?.split(' ').pop() ?? NaN);
}

/** Polls /healthz until stopped; every answer's status and time. */
function pollHealthz(): { stop(): Promise<{ n: number; notOk: number; maxMs: number }> } {
  let running = true;
  const seen = { n: 0, notOk: 0, maxMs: 0 };
  const loop = (async () => {
    while (running) {
      const at = Date.now();
      const res = await fetch(`${svc.url}/healthz`).catch(() => undefined);
      await res?.arrayBuffer();
      seen.n += 1;
      if (res?.status !== 200) seen.notOk += 1;
      seen.maxMs = Math.max(seen.maxMs, Date.now() - at);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return { stop: async () => { running = false; await loop; return seen; } };
}

beforeAll(async () => {
  bombs = await compressionBombs();
  upstream = http.createServer(answer);
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  svc = await startServiceProcess({
    HLR_URL: `${base}/hlr`, SIM_URL: `${base}/sim`, CRM_URL: `${base}/crm`, LOG_LEVEL: 'info',
    // Nothing cached or served stale: every request asks the upstreams.
    KYC_CACHE_TTL_S: '0', KYC_STALE_S: '0', SIM_SWAP_CACHE_TTL_S: '0', NEGATIVE_CACHE_TTL_S: '0',
    // The test's own calls must not open a breaker: each refusal is seen as such.
    BREAKER_VOLUME_THRESHOLD: '100000', KYC_MATCH_MAX_PER_NUMBER_PER_DAY: '1000',
  });
  token = await fetchToken(svc.url, { clientId: 'demo-key', clientSecret: 'demo-secret' });
});

afterAll(async () => {
  svc?.proc.kill('SIGTERM');
  await svc?.exited;
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
});

beforeEach(() => { modes.hlr = 'good'; modes.sim = 'good'; modes.crm = 'good'; });

describe('compression bombs from the upstreams', () => {
  it('when every upstream answers a good record, then each path answers 200 (the control)', async () => {
    for (const system of ['hlr', 'sim', 'crm'] as const) expect((await ask(system)).status).toBe(200);
  });

  it.each(['hlr', 'sim', 'crm'] as const)(
    'when %s answers br, gzip and deflate bombs of 200 MB, then each answer is 503 UNAVAILABLE, the service\'s memory stays bounded, /healthz answers throughout and the refusals are counted',
    async (system) => {
      const before = memoryMb();
      const refusedBefore = await metric('verify_upstream_replies_refused_total', `upstream="${system}",reason="too_large"`);
      const health = pollHealthz();
      await until(async () => (await fetch(`${svc.url}/healthz`)).ok, 'the poller has started');
      const replies = [];
      // Four at once per encoding: inflated whole, that was 800 MB and seconds of blocked event loop.
      for (const enc of ['br', 'gzip', 'deflate'] as const) {
        modes[system] = enc;
        replies.push(...await Promise.all(Array.from({ length: 4 }, () => ask(system))));
      }
      const seen = await health.stop();
      const after = memoryMb();
      expect(replies.map((r) => `${r.status} ${r.body.code}`)).toEqual(Array(12).fill('503 UNAVAILABLE'));
      expect(await metric('verify_upstream_replies_refused_total', `upstream="${system}",reason="too_large"`) - refusedBefore).toBe(12);
      // Peak resident memory: before the fix one 200 MB br reply took it from ~140 MB to ~760 MB.
      expect(after.peak - before.peak).toBeLessThan(100);
      expect(seen.n).toBeGreaterThan(0);
      expect(seen.notOk).toBe(0);
      expect(seen.maxMs).toBeLessThan(1000);
      process.stdout.write(`${system} bombs: peak RSS ${before.peak.toFixed(0)} -> ${after.peak.toFixed(0)} MiB, rss ${before.rss.toFixed(0)} -> ${after.rss.toFixed(0)} MiB; /healthz ${seen.n} answers, slowest ${seen.maxMs} ms\n`);
    },
  );

  it('when the HLR answers a bomb to a legacy KYC request, then the answer is 9999 with 503', async () => {
    modes.hlr = 'br';
    const r = await postJson(`${svc.url}/eai/verify_customer/query/kyc?${signedQuery(DEMO)}`, { txn_id: txnId(), msisdn: freshPhone().slice(1) });
    expect([r.status, r.body.code]).toEqual([503, '9999']);
  });

  it('when a bomb was refused, then the log says why without any of its body', async () => {
    modes.crm = 'br';
    expect((await ask('crm')).status).toBe(503);
    await until(() => svc.count(/answered a body over 65536 bytes/) > 0, 'the refusal logged');
    expect(svc.output()).not.toMatch(/Amani|"pad"|paymentType":"prepaid/);
  });
});

describe('a 200 about another number', () => {
  it.each(['hlr', 'sim', 'crm'] as const)('when %s answers a record naming another msisdn, then the answer is 503, counted and logged without the body', async (system) => {
    const before = await metric('verify_upstream_replies_refused_total', `upstream="${system}",reason="other_subscriber"`);
    modes[system] = 'other';
    const r = await ask(system);
    expect([r.status, r.body.code]).toEqual([503, 'UNAVAILABLE']);
    expect(await metric('verify_upstream_replies_refused_total', `upstream="${system}",reason="other_subscriber"`) - before).toBe(1);
    await until(() => svc.count(new RegExp(`"upstream":"${system}".*answered about another subscriber`)) > 0, 'the refusal logged');
    expect(svc.output()).not.toContain(OTHER);
    // The same record about the number asked is used: only the number made the difference.
    modes[system] = 'good';
    expect((await ask(system)).status).toBe(200);
  });
});
