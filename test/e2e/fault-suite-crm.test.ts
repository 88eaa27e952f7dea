import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { defaultFixturesPath, loadFixtures } from '../../src/simulator/fixtures';
import { Simulator, createSimulator } from '../../src/simulator/simulator';
import { CamaraHarness, CamaraReply, startCamaraHarness } from '../support/camara-harness';
import { ReadyzWatch, sleep, watchReadyz } from '../support/fault-probes';
import { FULL, KYC_MATCH, subscriberWith } from '../support/kyc-match-fixtures';
import { until } from '../support/until';

/*
 * Customer records failing, beside the HLR and SIM faults of fault-suite.test.ts: KYC Match
 * answers 503 UNAVAILABLE (fast once the crm breaker is open, without calling customer
 * records), while SIM Swap and KYC Tenure, which never ask customer records, keep answering
 * 200; the breaker opens, half-opens and closes, and /readyz and /metrics show it.
 */

jest.setTimeout(60_000);
const RESET_MS = 1000;
const ENV = {
  CRM_TIMEOUT_MS: '200', BREAKER_VOLUME_THRESHOLD: '10', BREAKER_ERROR_THRESHOLD_PERCENT: '50', BREAKER_WINDOW_MS: '2000',
  BREAKER_RESET_TIMEOUT_MS: String(RESET_MS), KYC_MATCH_MAX_PER_NUMBER_PER_DAY: '1000000',
};

interface Sample { at: number; api: 'match' | 'swap' | 'tenure'; status: number; code?: string; ms: number }

const crmState = (s: string) => (r: { upstreams: Record<string, string> }) => r.upstreams.crm === s;

describe('faults: customer records down, then up', () => {
  let sim: Simulator;
  let c: CamaraHarness;
  let watch: ReadyzWatch;

  beforeAll(async () => {
    sim = createSimulator({ subscribers: loadFixtures(defaultFixturesPath()), synthetic: false });
    const simBase = await sim.listen(0);
    c = await startCamaraHarness({ simulator: sim, env: { ...ENV, SIM_BASE: simBase } });
    watch = watchReadyz(c.url);
  });
  afterAll(async () => {
    watch?.stop();
    await c?.close();
    await sim?.close();
  });

  it('when customer records go down, then KYC Match answers 503 and its breaker opens while SIM Swap and KYC Tenure answer 200; when they come back, the breaker closes', async () => {
    const phone = subscriberWith(c, FULL, '25571270');
    const token = await c.tokens.twoLegged({ scope: 'kyc-match:match sim-swap kyc-tenure:check-tenure' });
    const samples: Sample[] = [];
    let running = true;
    const timed = async (api: Sample['api'], send: () => Promise<CamaraReply>) => {
      const at = Date.now();
      const r = await send();
      samples.push({ at, api, status: r.status, code: (r.body as { code?: string } | undefined)?.code, ms: Date.now() - at });
    };
    const drive = (async () => {
      while (running) {
        await Promise.all([
          timed('match', () => c.call(KYC_MATCH, { phoneNumber: phone, givenName: 'Amani' }, { token })),
          timed('swap', () => c.call('/sim-swap/v2/check', { phoneNumber: '+255712000006', maxAge: 24 }, { token })),
          timed('tenure', () => c.call('/kyc-tenure/v0.2/check-tenure', { phoneNumber: '+255712000001', tenureDate: '2020-01-01' }, { token })),
        ]);
        await sleep(15);
      }
    })();

    // Traffic of all three APIs before the fault: what "throughout" is measured against.
    const answered = (api: Sample['api'], from: number) => samples.filter((x) => x.api === api && x.at >= from).length;
    await until(() => answered('match', 0) >= 5 && answered('swap', 0) >= 5 && answered('tenure', 0) >= 5, 'traffic of all three APIs before the fault');
    const downAt = Date.now();
    sim.setFault('crm', { down: true });
    const opened = await watch.waitFor('crm open', crmState('open'), 5000, downAt);
    const openFrom = Date.now();
    const callsBefore = sim.calls().crm;
    // Enough matches answered while open (the count asserted below keeps 50 ms of margin at the end).
    await until(() => answered('match', openFrom) >= 12, 'KYC Match traffic while the crm breaker is open');
    const callsWhileOpen = sim.calls().crm - callsBefore;
    const openTo = Date.now();
    const upAt = Date.now();
    sim.resetFaults();
    const closed = await watch.waitFor('crm closed', crmState('closed'), RESET_MS * 3 + 1000, upAt);
    await until(() => answered('match', closed.at + 50) >= 5, 'KYC Match traffic after the breaker closed');
    running = false;
    await drive;

    const during = samples.filter((s) => s.at >= opened.at && s.at < upAt);
    const matchWhileOpen = samples.filter((s) => s.api === 'match' && s.at >= openFrom && s.at < openTo - 50);
    expect(matchWhileOpen.length).toBeGreaterThan(5);
    expect(matchWhileOpen.every((s) => s.status === 503 && s.code === 'UNAVAILABLE')).toBe(true);
    // The open breaker answers without waiting for the 200 ms deadline, and lets at most a probe through.
    expect(Math.max(...matchWhileOpen.map((s) => s.ms))).toBeLessThan(1000);
    expect(callsWhileOpen).toBeLessThanOrEqual(1);
    for (const api of ['swap', 'tenure'] as const) {
      const answers = samples.filter((s) => s.api === api);
      expect([api, [...new Set(answers.map((s) => s.status))]]).toEqual([api, [200]]);
      expect(during.filter((s) => s.api === api).length).toBeGreaterThan(5);
    }
    // half_open lasts one probe under this load, too short for /readyz polling: /metrics counts it below.
    expect(watch.distinct((r) => r.upstreams.crm).filter((st) => st !== 'half_open')).toEqual(['closed', 'open', 'closed']);
    expect(watch.distinct((r) => r.upstreams.hlr)).toEqual(['closed']);
    const recovered = samples.filter((s) => s.api === 'match' && s.at > closed.at + 50);
    expect(recovered.length).toBeGreaterThan(3);
    expect([...new Set(recovered.map((s) => s.status))]).toEqual([200]);

    const metrics = await (await fetch(`${c.url}/metrics`)).text();
    for (const state of ['open', 'half_open', 'closed']) {
      expect(metrics).toMatch(new RegExp(`verify_circuit_breaker_transitions_total\\{upstream="crm",state="${state}"\\} [1-9]`));
    }
    expect(metrics).toMatch(/verify_upstream_calls_total\{upstream="crm",outcome="rejected"\} [1-9]/);
    expect(metrics).toMatch(/verify_upstream_calls_total\{upstream="crm",outcome="ok"\} [1-9]/);
  });
});

describe('faults: customer records answering off-contract, or not configured', () => {
  it('when customer records answer a body that is not a record, or a 404 that is not the contract\'s, then KYC Match answers 503, never a guess', async () => {
    const replies: Array<[number, string, string]> = [
      [200, 'application/json', '"José"'], [200, 'application/json', '[{"givenName":"Amani"}]'], [200, 'text/html', '<html>'],
      [404, 'text/html', '<h1>default backend</h1>'], [404, 'application/json', '{"error":"not_found","msisdn":"255700000000"}'], [500, 'application/json', '{}'],
    ];
    let next = 0;
    const crm = createServer((_req, res) => {
      const [status, type, body] = replies[next++ % replies.length];
      res.writeHead(status, { 'content-type': type }).end(body);
    });
    await new Promise<void>((r) => crm.listen(0, '127.0.0.1', r));
    const c = await startCamaraHarness({ env: { CRM_URL: `http://127.0.0.1:${(crm.address() as AddressInfo).port}/crm`, BREAKER_VOLUME_THRESHOLD: '1000' } });
    try {
      const token = await c.tokens.twoLegged({ scope: 'kyc-match:match' });
      for (let i = 0; i < replies.length; i++) {
        const r = await c.call(KYC_MATCH, { phoneNumber: '+255712000011', givenName: 'Jose' }, { token });
        expect([i, r.status, (r.body as { code: string }).code]).toEqual([i, 503, 'UNAVAILABLE']);
        expect(r.text).not.toMatch(/José|Amani|default backend/);
      }
    } finally {
      await c.close();
      await new Promise((r) => crm.close(r));
    }
  });

  it('when CRM_URL is not set beside HLR_URL and SIM_URL, then KYC Match answers 503, SIM Swap 200, and /readyz lists no crm', async () => {
    const c = await startCamaraHarness({ env: { CRM_URL: '' } });
    try {
      const token = await c.tokens.twoLegged({ scope: 'kyc-match:match sim-swap' });
      const r = await c.call(KYC_MATCH, { phoneNumber: '+255712000011', givenName: 'Jose' }, { token });
      expect([r.status, (r.body as { code: string }).code]).toEqual([503, 'UNAVAILABLE']);
      expect((await c.call('/sim-swap/v2/check', { phoneNumber: '+255712000006' }, { token })).status).toBe(200);
      const ready = await (await fetch(`${c.url}/readyz`)).json() as { upstreams: Record<string, string> };
      expect(ready.upstreams).toEqual({ hlr: 'closed', sim: 'closed' });
    } finally {
      await c.close();
    }
  });
});
