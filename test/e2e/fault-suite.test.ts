import { mkdtempSync, writeFileSync } from 'node:fs';
import { ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultFixturesPath, loadFixtures } from '../../src/simulator/fixtures';
import { Simulator, createSimulator } from '../../src/simulator/simulator';
import { createLogger } from '../../src/observability/logger';
import { FaultReport } from '../support/fault-report';
import { EPOCH, PHASE, WARM, allAnswered, byError, count, median, mixed, openApiCheck, phase, pick, share, statuses } from '../support/fault-traffic';
import { ReadyzWatch, startServiceProcess, watchReadyz } from '../support/fault-probes';
import { Harness, LegacyResult, postJson, resultOf, startHarness, txnId } from '../support/harness';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { DEMO, signedQuery } from '../support/signing';
import { LoadRequest, Sample, SteadyLoad, startSteadyLoad } from '../support/steady-load';
import { until } from '../support/until';

/*
 * Faults under load: steady open-loop load on loopback while one thing goes wrong at a time.
 * Every reply is checked (status allowed for the condition, body in the operation's shape,
 * docs/openapi.yaml); a reply that fails a check is malformed, a request without a reply is
 * missing, and both must be 0 in every scenario. Each scenario then checks what the contract
 * says that fault should do. Figures: docs/reliability.md, "Faults under load".
 */

jest.setTimeout(60_000);

const RATE = Number(process.env.FAULT_LOAD_RATE ?? 150);
const HLR_TIMEOUT_MS = 200;
const RESET_MS = 1000;
/** Small timeouts and thresholds, so every fault shows within seconds. */
const ENV = {
  HLR_TIMEOUT_MS: String(HLR_TIMEOUT_MS), SIM_TIMEOUT_MS: String(HLR_TIMEOUT_MS),
  BREAKER_VOLUME_THRESHOLD: '10', BREAKER_ERROR_THRESHOLD_PERCENT: '50', BREAKER_WINDOW_MS: '2000',
  BREAKER_RESET_TIMEOUT_MS: String(RESET_MS),
  // Every KYC asks the HLR (nothing is fresh) but any earlier answer may be served stale.
  KYC_CACHE_TTL_S: '0', KYC_STALE_S: '3600', SIM_SWAP_CACHE_TTL_S: '0', NEGATIVE_CACHE_TTL_S: '0',
};
// A loaded 2-core CI machine stalls now and then: latency bounds are generous, counts are exact.
const MARGIN_MS = 1000;
/**
 * The timeout of an upstream a scenario does not fault: past any stall of a loaded machine, so
 * a 503 from it is a defect, not a 200 ms timeout the stall caused.
 */
const HEALTHY = '2000';
const ALLOWED = [200, 503];
/** Answers before a fault: the load is under way. */
const WARMUP = 50;

const report = new FaultReport({ ratePerSecond: RATE, ...ENV });
afterAll(() => report.write());

function load(baseUrl: string, next: (seq: number) => LoadRequest): SteadyLoad {
  // Bounded by count and time; a scenario normally stops it well before either.
  return startSteadyLoad({ baseUrl, ratePerSecond: RATE, maxRequests: RATE * 30, maxDurationMs: 30_000, next, allowedStatuses: ALLOWED, validate: openApiCheck });
}

/** Every reply well-formed, every request answered. */
function expectClean(samples: readonly Sample[]): void {
  expect(samples.filter((s) => s.outcome !== 'answered').map((s) => `${s.op}/${s.tag} ${s.outcome} ${s.status ?? s.error}: ${s.problems?.join('; ') ?? ''}`).slice(0, 5)).toEqual([]);
}

/** Stale KYC answers must be the answers given before the fault (the msisdn echoes the form sent). */
function expectSameFacts(samples: readonly Sample[], facts: Map<string, Omit<LegacyResult, 'msisdn'>>): void {
  const wrong = samples.filter((s) => {
    const normal = s.msisdn.startsWith('+') ? s.msisdn.slice(1) : s.msisdn.startsWith('0') ? `255${s.msisdn.slice(1)}` : s.msisdn;
    const { msisdn: _sent, ...rest } = s.result ?? {};
    return JSON.stringify(rest) !== JSON.stringify(facts.get(normal));
  });
  expect(wrong.length).toBe(0);
}

// ---- the service under test ----------------------------------------------------------------

interface Transition { at: number; upstream: string; state: string }

interface Stack {
  h: Harness;
  sim: Simulator;
  watch: ReadyzWatch;
  /** Breaker state changes, from the service's own warn log (exact, where /readyz is polled). */
  transitions: Transition[];
  /** The KYC facts of each warm number, as answered before any fault. */
  facts: Map<string, Record<string, string>>;
  close: () => Promise<void>;
}

function syntheticSimulator(): Simulator {
  return createSimulator({ subscribers: loadFixtures(defaultFixturesPath()), synthetic: true, startedAt: EPOCH });
}

async function stack(env: Record<string, string> = {}): Promise<Stack> {
  const sim = syntheticSimulator();
  const simBase = await sim.listen(0);
  const transitions: Transition[] = [];
  const logger = createLogger('warn', {
    write: (line: string) => {
      const l = JSON.parse(line) as { time: string; msg: string; upstream?: string; state?: string };
      if (l.msg === 'circuit breaker changed state') transitions.push({ at: Date.parse(l.time), upstream: l.upstream ?? '', state: l.state ?? '' });
    },
  });
  const h = await startHarness({ simulator: sim, logger, env: { ...ENV, SIM_BASE: simBase, HLR_URL: `${simBase}/hlr`, SIM_URL: `${simBase}/sim`, ...env } });
  const facts = new Map<string, Omit<LegacyResult, 'msisdn'>>();
  for (const n of WARM) {
    const r = await h.post('kyc', { txn_id: txnId('warm'), msisdn: n });
    expect(r.status).toBe(200);
    const { msisdn: _n, ...rest } = resultOf(r);
    facts.set(n, rest);
  }
  const watch = watchReadyz(h.url);
  return {
    h, sim, watch, facts, transitions,
    close: async () => {
      watch.stop();
      await h.close();
      await sim.close();
    },
  };
}

/** "open +120 ms, half_open +1121 ms, ..." relative to t0. */
function timeline(transitions: readonly Transition[], upstream: string, t0: number): string {
  const own = transitions.filter((t) => t.upstream === upstream);
  return own.length ? own.map((t) => `${t.state} ${t.at - t0 >= 0 ? '+' : ''}${t.at - t0} ms`).join(', ') : 'no change';
}

const hlrState = (s: string) => (r: { upstreams: Record<string, string> }) => r.upstreams.hlr === s;
const simState = (s: string) => (r: { upstreams: Record<string, string> }) => r.upstreams.sim === s;

// ---- scenarios -----------------------------------------------------------------------------

describe('the load driver', () => {
  it('when a reply is wrong or a connection dropped, then the load driver counts it as malformed or missing', async () => {
    // One behaviour per last digit of the msisdn: the checks this suite relies on must be able to fail.
    const replies: Array<(res: ServerResponse, msisdn: string) => void> = [
      (res, m) => json(res, 200, { code: '00000', desc: 'Success', result: { msisdn: m, is_prepaid: 'true', is_active: 'true', is_valid: 'true' } }),
      (res, m) => json(res, 200, { code: '00000', desc: 'Success', result: { msisdn: m, is_prepaid: true, is_active: 'true', is_valid: 'true' } }),
      (res) => json(res, 503, { code: '9999', desc: 'Unexpected system Error' }),
      (res) => json(res, 503, { code: '11111', desc: 'Error Process' }, { 'retry-after': '1' }),
      (res) => json(res, 400, { response: { code: '11111', desc: 'Error Process' } }),
      (res) => { res.writeHead(500, { 'content-type': 'text/plain' }).end('oops'); },
      (res) => { res.socket?.destroy(); },
    ];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => { body += d; });
      req.on('end', () => {
        const msisdn = (JSON.parse(body) as { msisdn: string }).msisdn;
        replies[Number(msisdn.slice(-1))](res, msisdn);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const l = startSteadyLoad({
        baseUrl: url, ratePerSecond: 200, maxRequests: replies.length, maxDurationMs: 5000, validate: openApiCheck,
        next: (seq) => ({ op: 'kyc', msisdn: `25571200000${seq}`, credentials: DEMO, tag: 'probe' }),
      });
      const summary = await l.done;
      const outcomes = [...l.samples].sort((a, b) => a.seq - b.seq).map((x) => x.outcome);
      expect(outcomes).toEqual(['answered', 'malformed', 'malformed', 'malformed', 'malformed', 'malformed', 'no-answer']);
      expect(summary).toMatchObject({ sent: 7, malformed: 5, noAnswer: 1 });
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-correlator': 'c', ...headers }).end(JSON.stringify(body));
}

describe('faults under steady load', () => {
  it('when the HLR is slower than its timeout, then 9999 comes within the timeout, cached numbers are answered stale, and it recovers', async () => {
    const { h, sim, watch, facts, transitions, close } = await stack({ SIM_TIMEOUT_MS: HEALTHY });
    try {
      const l = load(h.url, mixed());
      await phase(l, {}, 'the load under way', (s) => s.length >= WARMUP);
      const faultOn = Date.now();
      sim.setFault('hlr', { latencyMs: HLR_TIMEOUT_MS * 3 });
      await watch.waitFor('hlr open', hlrState('open'), 10_000, faultOn);
      await phase(l, { op: 'kyc', tag: 'cold', from: faultOn + 100 }, 'new-number KYC during the fault');
      const faultOff = Date.now();
      // Every request sent during the fault meets it whole.
      await allAnswered(l);
      sim.resetFaults();
      const closed = await watch.waitFor('hlr closed', hlrState('closed'), RESET_MS * 3 + MARGIN_MS, faultOff);
      await phase(l, { op: 'kyc', tag: 'cold', from: closed.at + 50 }, 'new-number KYC after recovery');
      await l.stop();
      const all = l.samples;

      const during = { from: faultOn + 100, to: faultOff - 100 };
      const coldKyc = pick(all, { op: 'kyc', tag: 'cold', ...during });
      const recovered = pick(all, { op: 'kyc', tag: 'cold', from: closed.at + 50 });
      const kycCalls = pick(all, { op: 'kyc' }).length + WARM.length;
      report.add('HLR latency 3× past the timeout', all, {
        notes: [
          `fault ${faultOff - faultOn} ms; new-number KYC during it: ${count(coldKyc, 503)} of ${coldKyc.length} 503, slowest ${Math.max(...coldKyc.map((s) => s.ms))} ms`,
          `cached-number KYC during it: ${count(pick(all, { op: 'kyc', tag: 'warm', ...during }), 200)} × 200 (stale)`,
          `hlr breaker from the fault's start (ended +${faultOff - faultOn} ms): ${timeline(transitions, 'hlr', faultOn)}`,
        ],
      });

      expectClean(all);
      expect(Math.max(...all.map((s) => s.ms))).toBeLessThan(HLR_TIMEOUT_MS + MARGIN_MS);
      expect(coldKyc.length).toBeGreaterThan(20);
      expect(statuses(coldKyc)).toEqual([503]);
      expect(coldKyc.every((s) => s.code === '9999' && /^Unexpected system Error: hlr (timed out|unavailable)/.test(s.desc ?? ''))).toBe(true);
      // A cached number is answered from its last known facts instead of 9999 (CONTRACT §5).
      const warmKyc = pick(all, { op: 'kyc', tag: 'warm' });
      expect(statuses(warmKyc)).toEqual([200]);
      expectSameFacts(warmKyc, facts);
      expect(statuses(pick(all, { op: 'sim_swap' }))).toEqual([200]);
      expect(watch.distinct((r) => r.upstreams.hlr)).toContain('open');
      expect(recovered.length).toBeGreaterThan(20);
      expect(statuses(recovered)).toEqual([200]);
      // No retries: at most one HLR call per KYC request.
      expect(sim.calls().hlr).toBeLessThanOrEqual(kycCalls);
    } finally {
      await close();
    }
  });

  it('when the HLR fails half its calls, then every answer is well-formed, cached numbers are stale, and the breaker trips and recovers', async () => {
    const { h, sim, watch, facts, transitions, close } = await stack({ SIM_TIMEOUT_MS: HEALTHY });
    try {
      const l = load(h.url, mixed());
      await phase(l, {}, 'the load under way', (s) => s.length >= WARMUP);
      const faultOn = Date.now();
      sim.setFault('hlr', { errorRate: 0.5 });
      // Half failing opens the breaker only once the window holds no healthy calls from before (docs/reliability.md).
      await watch.waitFor('hlr open', hlrState('open'), 15_000, faultOn);
      await phase(l, { op: 'kyc', tag: 'cold', from: faultOn + 100 }, 'new-number KYC during the fault, some answered and some 9999',
        (s) => s.length >= PHASE && count(s, 200) > 0 && count(s, 503) > 0);
      const faultOff = Date.now();
      await allAnswered(l);
      sim.resetFaults();
      const closed = await watch.waitFor('hlr closed', hlrState('closed'), RESET_MS * 3 + MARGIN_MS, faultOff);
      await phase(l, { op: 'kyc', tag: 'cold', from: closed.at + 50 }, 'new-number KYC after recovery');
      await l.stop();
      const all = l.samples;

      const coldKyc = pick(all, { op: 'kyc', tag: 'cold', from: faultOn + 100, to: faultOff - 100 });
      const recovered = pick(all, { op: 'kyc', tag: 'cold', from: closed.at + 50 });
      const breaker = watch.distinct((r) => r.upstreams.hlr);
      // Until the breaker first opens, a new number's KYC fails exactly when its HLR call does: about half the time.
      const firstOpen = transitions.find((t) => t.upstream === 'hlr' && t.state === 'open' && t.at > faultOn)?.at ?? faultOff;
      const beforeOpen = coldKyc.filter((s) => s.sentAt < firstOpen);
      report.add('HLR fails 50 % of calls', all, {
        notes: [
          `new-number KYC during the fault: ${count(coldKyc, 200)} × 200, ${count(coldKyc, 503)} × 503 (${share(count(coldKyc, 503), coldKyc.length)} 9999); ` +
            `before the breaker first opened: ${share(count(beforeOpen, 503), beforeOpen.length)} of ${beforeOpen.length}`,
          `hlr breaker from the fault's start (ended +${faultOff - faultOn} ms): ${timeline(transitions, 'hlr', faultOn)}`,
        ],
      });

      expectClean(all);
      expect(coldKyc.length).toBeGreaterThan(20);
      expect(count(coldKyc, 200)).toBeGreaterThan(0);
      expect(count(coldKyc, 503)).toBeGreaterThan(0);
      if (beforeOpen.length >= 20) {
        expect(count(beforeOpen, 503) / beforeOpen.length).toBeGreaterThan(0.2);
        expect(count(beforeOpen, 503) / beforeOpen.length).toBeLessThan(0.8);
      }
      expect(coldKyc.filter((s) => s.status === 503).every((s) => s.code === '9999' && /^Unexpected system Error: hlr /.test(s.desc ?? ''))).toBe(true);
      const warmKyc = pick(all, { op: 'kyc', tag: 'warm' });
      expect(statuses(warmKyc)).toEqual([200]);
      expectSameFacts(warmKyc, facts);
      expect(statuses(pick(all, { op: 'sim_swap' }))).toEqual([200]);
      // Sane: only the three states, and closed again once the HLR is healthy.
      expect(breaker.every((s) => ['closed', 'open', 'half_open'].includes(s))).toBe(true);
      expect(statuses(recovered)).toEqual([200]);
      expect(recovered.length).toBeGreaterThan(20);
      expect(sim.calls().hlr).toBeLessThanOrEqual(pick(all, { op: 'kyc' }).length + WARM.length);
    } finally {
      await close();
    }
  });

  it('when the HLR is down then up, then the breaker opens, 9999 comes fast without calling the HLR, and it recovers', async () => {
    const { h, sim, watch, facts, transitions, close } = await stack({ SIM_TIMEOUT_MS: HEALTHY });
    try {
      const l = load(h.url, mixed());
      await phase(l, {}, 'the load under way', (s) => s.length >= WARMUP);
      const downAt = Date.now();
      sim.setFault('hlr', { down: true });
      const opened = await watch.waitFor('hlr open', hlrState('open'), 3000, downAt);
      // Calls the breaker admitted before it opened may still be queued for a connection and reach
      // the HLR after it opened (more of them on a busy machine): the window starts once their
      // requests are answered.
      await allAnswered(l);
      const callsBefore = sim.calls().hlr;
      const openFrom = Date.now();
      await phase(l, { op: 'kyc', tag: 'cold', from: openFrom }, 'new-number KYC while the breaker is open');
      const callsDuring = sim.calls().hlr - callsBefore;
      const openTo = Date.now();
      // Every request sent while open is answered before the HLR is back.
      await allAnswered(l);
      const upAt = Date.now();
      sim.resetFaults();
      const closed = await watch.waitFor('hlr closed', hlrState('closed'), RESET_MS * 3 + MARGIN_MS, upAt);
      await phase(l, { op: 'kyc', tag: 'cold', from: closed.at + 50 }, 'new-number KYC after recovery');
      await l.stop();
      const all = l.samples;

      const whileOpen = pick(all, { op: 'kyc', tag: 'cold', from: openFrom, to: openTo - 50 });
      const shortCircuited = whileOpen.filter((s) => /circuit open/.test(s.desc ?? ''));
      const recovered = pick(all, { op: 'kyc', tag: 'cold', from: closed.at + 50 });
      report.add('HLR down, then up', all, {
        notes: [
          `breaker open ${opened.at - downAt} ms after the HLR went down; closed ${closed.at - upAt} ms after it came back`,
          `while open (${openTo - openFrom} ms): ${whileOpen.length} new-number KYC, ${shortCircuited.length} answered "circuit open", ` +
            `median ${median(whileOpen.map((s) => s.ms))} ms, slowest ${Math.max(...whileOpen.map((s) => s.ms))} ms; HLR calls ${callsDuring}`,
          `hlr breaker from the HLR going down (up again +${upAt - downAt} ms): ${timeline(transitions, 'hlr', downAt)}`,
        ],
      });

      expectClean(all);
      expect(whileOpen.length).toBeGreaterThan(20);
      expect(statuses(whileOpen)).toEqual([503]);
      expect(whileOpen.every((s) => s.code === '9999' && Number(s.retryAfter) >= 1)).toBe(true);
      // Only the half-open trial call reaches the HLR: one per reset period at most.
      expect(callsDuring).toBeLessThanOrEqual(Math.ceil((openTo - openFrom) / RESET_MS) + 1);
      expect(whileOpen.length - shortCircuited.length).toBeLessThanOrEqual(2);
      expect(Math.max(...whileOpen.map((s) => s.ms))).toBeLessThan(MARGIN_MS);
      const warmKyc = pick(all, { op: 'kyc', tag: 'warm' });
      expect(statuses(warmKyc)).toEqual([200]);
      expectSameFacts(warmKyc, facts);
      expect(statuses(pick(all, { op: 'sim_swap' }))).toEqual([200]);
      expect(recovered.length).toBeGreaterThan(20);
      expect(statuses(recovered)).toEqual([200]);
    } finally {
      await close();
    }
  });

  it('when SIM management is down while the HLR is fine, then KYC is unaffected, SIM swap is 9999, and it recovers', async () => {
    const { h, sim, watch, transitions, close } = await stack({ HLR_TIMEOUT_MS: HEALTHY });
    try {
      const l = load(h.url, mixed());
      await phase(l, {}, 'the load under way', (s) => s.length >= WARMUP);
      const downAt = Date.now();
      sim.setFault('sim', { down: true });
      await watch.waitFor('sim open', simState('open'), 10_000, downAt);
      await phase(l, { op: 'sim_swap', from: downAt + 100 }, 'SIM swaps while SIM management is down');
      const upAt = Date.now();
      await allAnswered(l);
      sim.resetFaults();
      const closed = await watch.waitFor('sim closed', simState('closed'), RESET_MS * 3 + MARGIN_MS, upAt);
      await phase(l, { op: 'sim_swap', from: closed.at + 50 }, 'SIM swaps after recovery');
      await l.stop();
      const all = l.samples;

      const swapsDown = pick(all, { op: 'sim_swap', from: downAt + 100, to: upAt - 100 });
      const kyc = pick(all, { op: 'kyc' });
      const recovered = pick(all, { op: 'sim_swap', from: closed.at + 50 });
      report.add('SIM management down, HLR fine', all, {
        notes: [
          `KYC: ${count(kyc, 200)} of ${kyc.length} 200; SIM swap while down: ${count(swapsDown, 503)} of ${swapsDown.length} 503`,
          `sim breaker from SIM going down (up again +${upAt - downAt} ms): ${timeline(transitions, 'sim', downAt)}; hlr breaker: ${timeline(transitions, 'hlr', downAt)}`,
        ],
      });

      expectClean(all);
      expect(statuses(kyc)).toEqual([200]);
      expect(swapsDown.length).toBeGreaterThan(20);
      expect(statuses(swapsDown)).toEqual([503]);
      expect(swapsDown.every((s) => s.code === '9999' && /^Unexpected system Error: sim /.test(s.desc ?? ''))).toBe(true);
      expect(watch.distinct((r) => r.upstreams.sim)).toContain('open');
      expect(watch.distinct((r) => r.upstreams.hlr)).toEqual(['closed']);
      expect(recovered.length).toBeGreaterThan(20);
      expect(statuses(recovered)).toEqual([200]);
    } finally {
      await close();
    }
  });

  describe('with state on Redis', () => {
    let redis: RedisProcess;
    beforeAll(async () => { redis = await startRedis(); });
    afterAll(async () => { await redis?.stop(); });

    it('when Redis is killed mid-load and restarted, then every request is answered 200, degraded, then back on Redis', async () => {
      const { h, watch, close } = await stack({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'fault:', HLR_TIMEOUT_MS: HEALTHY, SIM_TIMEOUT_MS: HEALTHY });
      try {
        const l = load(h.url, mixed());
        await phase(l, {}, 'the load under way', (s) => s.length >= WARMUP);
        const killAt = Date.now();
        await redis.stop();
        const degraded = await watch.waitFor('store degraded', (r) => r.store === 'degraded', 5000, killAt);
        await phase(l, { from: degraded.at }, 'requests answered while degraded', (s) => s.length >= 2 * PHASE);
        const restartAt = Date.now();
        await redis.restart();
        const back = await watch.waitFor('store back on Redis', (r) => r.store === 'redis' && r.status === 'ready', 10_000, restartAt);
        await phase(l, { from: back.at }, 'requests answered back on Redis', (s) => s.length >= WARMUP);
        await l.stop();
        const all = l.samples;

        const duringOutage = pick(all, { from: degraded.at, to: restartAt });
        report.add('Redis killed, then restarted', all, {
          notes: [
            `degraded ${degraded.at - killAt} ms after the kill; back on Redis ${back.at - restartAt} ms after the restart`,
            `${duringOutage.length} requests sent while degraded, ${count(duringOutage, 200)} × 200`,
            `/readyz status: ${watch.distinct((r) => r.status).join(' → ')}`,
          ],
        });

        expectClean(all);
        expect(statuses(all)).toEqual([200]);
        expect(duringOutage.length).toBeGreaterThan(50);
        expect(watch.distinct((r) => `${r.status}/${r.store}`)).toEqual(['ready/redis', 'degraded/degraded', 'ready/redis']);
      } finally {
        await close();
      }
    });
  });

  describe('the built service as a process', () => {
    let sim: Simulator;
    let simBase: string;
    beforeAll(async () => {
      sim = syntheticSimulator();
      simBase = await sim.listen(0);
    });
    afterAll(async () => { await sim?.close(); });
    afterEach(() => sim.resetFaults());

    it('when partners are reloaded with SIGHUP under load, then no request fails and the new partner is served', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'vc-fault-hup-'));
      const file = join(dir, 'partners.json');
      const bank = { name: 'bank', apiKey: 'bank-key', secret: 'bank-secret', operations: ['kyc', 'sim_swap'] };
      const fintech = { name: 'fintech', apiKey: 'fin-key', secret: 'fin-secret', operations: ['kyc', 'sim_swap'] };
      writeFileSync(file, JSON.stringify({ partners: [bank] }));
      const svc = await startServiceProcess({
        ...ENV, HLR_TIMEOUT_MS: HEALTHY, SIM_TIMEOUT_MS: HEALTHY, LOG_LEVEL: 'info', PARTNERS_FILE: file, HLR_URL: `${simBase}/hlr`, SIM_URL: `${simBase}/sim`,
      });
      const hup = async (): Promise<number> => {
        const before = svc.count(/partners reloaded/);
        svc.proc.kill('SIGHUP');
        await until(() => svc.count(/partners reloaded/) > before, 'a reload after SIGHUP', 10_000).catch((err: Error) => {
          throw new Error(`${err.message}:\n${svc.output().slice(-2000)}`);
        });
        return Date.now();
      };
      try {
        let reloadedAt = Infinity;
        const l = load(svc.url, mixed((seq) => (Date.now() >= reloadedAt && seq % 2 === 1 ? fintech : bank)));
        await phase(l, {}, 'the load under way', (s) => s.length >= WARMUP);
        const probe = () => postJson(`${svc.url}/eai/verify_customer/query/kyc?${signedQuery(fintech)}`, { txn_id: txnId('hup'), msisdn: WARM[0] });
        const before = await probe();
        writeFileSync(file, JSON.stringify({ partners: [bank, fintech] }));
        reloadedAt = await hup();
        const after = await probe();
        await phase(l, { from: reloadedAt }, 'the new partner in the load', (s) => s.filter((x) => x.apiKey === fintech.apiKey).length >= 10);
        const reloads = [reloadedAt];
        for (let i = 0; i < 4; i++) {
          reloads.push(await hup());
          await phase(l, { from: reloads[reloads.length - 1] }, 'requests answered since the reload', (s) => s.length >= 10);
        }
        await phase(l, { from: reloads[reloads.length - 1] }, 'requests answered after the last reload', (s) => s.length >= WARMUP);
        await l.stop();
        const all = l.samples;

        const newPartner = all.filter((s) => s.apiKey === fintech.apiKey);
        report.add('SIGHUP partner reload (process)', all, {
          notes: [
            `${reloads.length} reloads under load; a new partner answered ${before.status} before the first and ${after.status} after it`,
            `requests of the new partner in the load: ${newPartner.length}, ${count(newPartner, 200)} × 200`,
          ],
        });

        expectClean(all);
        expect(statuses(all)).toEqual([200]);
        expect(before.status).toBe(401);
        expect(after.status).toBe(200);
        expect(newPartner.length).toBeGreaterThan(20);
        expect(svc.count(/partners reload failed/)).toBe(0);
      } finally {
        svc.proc.kill('SIGTERM');
        await svc.exited;
      }
    });

    it('when SIGTERM comes under load, then it is not ready first, still serves through the delay, completes in-flight requests, refuses later ones and exits 0', async () => {
      // Upstream calls take 300 ms, so at the signal dozens of requests are in flight.
      sim.setFault('hlr', { latencyMs: 300 });
      sim.setFault('sim', { latencyMs: 300 });
      const delayMs = 1000;
      const svc = await startServiceProcess({
        ...ENV, HLR_TIMEOUT_MS: '2000', SIM_TIMEOUT_MS: '2000', SHUTDOWN_GRACE_MS: '10000', SHUTDOWN_READINESS_DELAY_MS: String(delayMs),
        LOG_LEVEL: 'info', HLR_URL: `${simBase}/hlr`, SIM_URL: `${simBase}/sim`,
      });
      let exitCode: number | null | undefined;
      const watch = watchReadyz(svc.url);
      try {
        const l = load(svc.url, mixed());
        await until(() => l.samples.length >= WARMUP && l.inFlight() >= 20, 'dozens of requests in flight', 30_000);
        const termAt = Date.now();
        svc.proc.kill('SIGTERM');
        exitCode = await svc.exited;
        const exitedAt = Date.now();
        watch.stop();
        await until(() => l.samples.some((s) => s.sentAt >= exitedAt), 'an answer (or refusal) of a request sent after the exit', 10_000);
        await l.stop();
        const all = l.samples;
        const afterExit = await fetch(`${svc.url}/healthz`).then(() => 'answered', (err: Error) => (err.cause as NodeJS.ErrnoException | undefined)?.code ?? err.message);
        const closedAt = Date.parse(/"time":"([^"]+)"[^\n]*closing the listener/.exec(svc.output())?.[1] ?? '');
        // When the service handled the signal (its own log line): a busy machine may take a while.
        const handledAt = Date.parse(/"time":"([^"]+)"[^\n]*"msg":"shutting down"/.exec(svc.output())?.[1] ?? '');
        const notReady = watch.seen.find((r) => r.at >= termAt && r.httpStatus === 503);

        const beforeSignal = all.filter((s) => s.sentAt < termAt);
        const notAccepted = all.filter((s) => s.outcome === 'no-answer');
        const inFlight = beforeSignal.filter((s) => s.endedAt >= termAt);
        const afterSignal = all.filter((s) => s.sentAt >= termAt);
        const refused = afterSignal.filter((s) => s.outcome === 'no-answer');
        // Written after the signal: sent after the service handled it, or still in flight 50 ms after that.
        const writtenAfter = all.filter((s) => s.status !== undefined && (s.sentAt >= handledAt || s.endedAt > handledAt + 50));
        report.add('SIGTERM (process)', all, {
          shutdownAt: termAt,
          notes: [
            `signal handled ${handledAt - termAt} ms after it was sent; /readyz 503 shutting_down ${notReady ? `${notReady.at - termAt} ms` : 'never seen'} ` +
              `and listener closed ${closedAt - termAt} ms after it was sent`,
            `${inFlight.length} requests in flight at the signal, ${count(inFlight, 200)} × 200; exit code ${exitCode} ${exitedAt - termAt} ms after the signal`,
            `not accepted, all ending after the listener closed: ${notAccepted.length} (${byError(notAccepted)}), ${notAccepted.filter((s) => s.sentAt < termAt).length} of them sent before the signal; ` +
              `requests the service logged: ${svc.count(/^(?=.*"msg":"request")(?=.*"path":"\/eai\/verify_customer\/query\/)/)}, answers received: ${all.filter((s) => s.status !== undefined).length}`,
            `sent after the signal: ${afterSignal.length}; ${count(afterSignal, 200)} answered 200 during the readiness delay, ` +
              `${refused.length} not accepted once the listener closed (${byError(refused)}); a new connection after exit: ${afterExit}`,
            `answers written after the signal: ${writtenAfter.length}, ${writtenAfter.filter((s) => s.connection === 'close').length} with Connection: close`,
          ],
        });

        // Nothing fails while the listener is open. At its close, a connection the kernel had
        // completed but the service not yet accepted is reset: the service never read it.
        expect(all.filter((s) => s.outcome !== 'answered' && !(s.endedAt >= closedAt && (s.error === 'ECONNREFUSED' || s.error === 'ECONNRESET')))
          .map((s) => `${s.outcome} ${s.error ?? s.problems?.join('; ')} +${s.endedAt - termAt} ms`)).toEqual([]);
        // The service's own count: every request it read was answered, and the answer arrived.
        expect(svc.count(/"msg":"request aborted"/)).toBe(0);
        expect(svc.count(/^(?=.*"msg":"request")(?=.*"path":"\/eai\/verify_customer\/query\/)/)).toBe(all.filter((s) => s.status !== undefined).length);
        expect(statuses(all.filter((s) => s.status !== undefined))).toEqual([200]);
        expect(inFlight.length).toBeGreaterThan(10);
        expect(exitCode).toBe(0);
        expect(svc.output()).toMatch(/"msg":"stopped"/);
        expect(notReady).toBeDefined();
        expect(notReady!.at).toBeLessThan(closedAt);
        // Log times are whole milliseconds, and "shutting down" is written just after the delay's
        // timer is armed: the two lines may be a millisecond or two short of the delay apart.
        expect(closedAt - handledAt).toBeGreaterThanOrEqual(delayMs - 5);
        expect(writtenAfter.filter((s) => s.connection !== 'close').map((s) => `${s.connection} sent ${s.sentAt - handledAt} ms, ended ${s.endedAt - handledAt} ms`).slice(0, 5)).toEqual([]);
        // After the signal: answered during the delay, or never accepted once the listener closed.
        expect(count(afterSignal, 200)).toBeGreaterThan(0);
        expect(refused.length).toBeGreaterThan(0);
        expect(afterExit).toBe('ECONNREFUSED');
      } finally {
        watch.stop();
        if (exitCode === undefined) {
          svc.proc.kill('SIGKILL');
          await svc.exited;
        }
      }
    });
  });
});
