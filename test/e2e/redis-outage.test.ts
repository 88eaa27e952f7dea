import { Redis } from 'ioredis';
import { createStateStore } from '../../src/verification/state/create-state-store';
import { loadConfig } from '../../src/config/config';
import { systemClock } from '../../src/kernel/clock';
import { noopMetrics } from '../../src/verification/ports/metrics';
import { createLogger } from '../../src/observability/logger';
import { defaultFixturesPath, loadFixtures } from '../../src/simulator/fixtures';
import { Simulator, createSimulator } from '../../src/simulator/simulator';
import { waitForMode } from '../contract/state-store.contract';
import { Harness, Reply, postJson, startHarness, txnId } from '../support/harness';
import { RedisClusterProcess, startRedisCluster } from '../support/redis-cluster';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { until } from '../support/until';

jest.setTimeout(30_000);

const EVENTS_TOKEN = 'swap-events-token-0123456789';
const NUMBERS = ['255712000001', '255712000002', '255712000005', '255712000006', '255712000007'];

interface Sample { at: number; status: number; wellFormed: boolean; ms?: number }

/** A 200 with the success body, or a failure body in the operation's shape: anything else is a defect. */
function wellFormed(op: 'kyc' | 'sim_swap', r: Reply): boolean {
  type Body = { code?: unknown; desc?: unknown; result?: { msisdn?: unknown }; response?: Body } | undefined;
  const body = r.body as Body;
  if (r.status === 200) return body?.code === '00000' && typeof body.result?.msisdn === 'string';
  const failure = op === 'kyc' ? body : body?.response;
  return typeof failure?.code === 'string' && typeof failure.desc === 'string' && /^(Error Process|Unexpected system Error)/.test(failure.desc);
}

async function readyz(h: Harness): Promise<{ status: string; store: string }> {
  return (await (await fetch(`${h.url}/readyz`)).json()) as { status: string; store: string };
}

/** Milliseconds until /readyz reports the store mode, polled every 10 ms. */
async function timeUntilStore(h: Harness, store: string, timeoutMs = 10_000): Promise<number> {
  const started = Date.now();
  await until(async () => (await readyz(h)).store === store, `store ${store} on /readyz`, timeoutMs, 10);
  return Date.now() - started;
}

describe('Redis goes away mid-traffic and comes back', () => {
  let redis: RedisProcess;
  let sim: Simulator;
  let a: Harness;
  let b: Harness;
  let raw: Redis;
  const logLines: string[] = [];
  const prefix = `out${Date.now().toString(36)}:`;

  beforeAll(async () => {
    redis = await startRedis();
    sim = createSimulator({ subscribers: loadFixtures(defaultFixturesPath()), synthetic: false });
    const simBase = await sim.listen(0);
    const env = { REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix, SIM_BASE: simBase, HLR_URL: `${simBase}/hlr`, SIM_URL: `${simBase}/sim`, EVENTS_TOKEN };
    const logger = createLogger('info', { write: (line: string) => { logLines.push(line); } });
    [a, b] = await Promise.all([startHarness({ simulator: sim, env, logger }), startHarness({ simulator: sim, env })]);
    raw = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  });
  afterAll(async () => {
    raw?.disconnect();
    await Promise.all([a?.close(), b?.close()]);
    await sim?.close();
    await redis?.stop();
  });

  it('when Redis goes away mid-traffic, then every request is answered, it degrades at once, keeps txn_ids on the instance, and returns to Redis by itself', async () => {
    const samples: Sample[] = [];
    let running = true;
    const worker = async (h: Harness, w: number) => {
      for (let i = 0; running; i++) {
        const op = (i + w) % 2 === 0 ? 'kyc' : 'sim_swap';
        const r = await h.post(op, { txn_id: txnId(`w${w}`), msisdn: NUMBERS[(i + w) % NUMBERS.length] });
        samples.push({ at: Date.now(), status: r.status, wellFormed: wellFormed(op, r) });
      }
    };
    const traffic = Promise.all([worker(a, 0), worker(a, 1), worker(b, 2), worker(b, 3)]);
    const answeredSince = (t: number) => samples.filter((s) => s.at > t).length;

    await until(() => samples.length >= 20, 'traffic flowing on Redis');
    const killedAt = Date.now();
    await redis.stop();
    const degradeMs = await timeUntilStore(a, 'degraded');
    expect(await readyz(a)).toMatchObject({ status: 'degraded', store: 'degraded' });
    expect(await (await fetch(`${a.url}/metrics`)).text()).toMatch(/verify_state_store_mode\{mode="degraded"\} 1/);

    // While Redis is away, the instance still knows the txn_ids it answered.
    const duringOutage = txnId('down');
    const first = await a.post('kyc', { txn_id: duringOutage, msisdn: '255712000002' });
    expect(first.status).toBe(200);
    const again = await a.post('kyc', { txn_id: duringOutage, msisdn: '255712000002' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await a.post('kyc', { txn_id: duringOutage, msisdn: '255712000001' })).status).toBe(409);
    // A swap event cannot reach the shared cache: the sender is told to retry.
    const event = await postJson(`${a.url}/internal/events/sim-swap`, { msisdn: '255712000006' }, { headers: { authorization: `Bearer ${EVENTS_TOKEN}` } });
    expect(event.status).toBe(503);
    expect(event.headers.get('retry-after')).toBe('1');

    await until(() => answeredSince(killedAt + degradeMs) > 10, 'requests answered during the outage');
    const restartedAt = Date.now();
    await redis.restart();
    const recoverMs = await timeUntilStore(a, 'redis');
    await timeUntilStore(b, 'redis');
    const backAt = Date.now();
    await until(() => answeredSince(backAt) >= 10, 'traffic answered on Redis again');
    running = false;
    await traffic;
    console.log(`Redis outage: degraded ${degradeMs} ms after the kill, back on Redis ${recoverMs} ms after the restart; ${samples.length} requests`);

    expect(samples.filter((s) => !s.wellFormed)).toEqual([]);
    expect(samples.filter((s) => s.status !== 200)).toEqual([]);
    const during = samples.filter((s) => s.at > killedAt + degradeMs && s.at < restartedAt);
    expect(during.length).toBeGreaterThan(10);
    expect(degradeMs).toBeLessThan(1000);
    expect(recoverMs).toBeLessThan(3000);

    // The txn_id used during the outage was written to Redis on return: B knows it too.
    const onB = await b.post('kyc', { txn_id: duringOutage, msisdn: '255712000002' });
    expect(onB.status).toBe(200);
    expect(onB.headers.get('idempotent-replayed')).toBe('true');
    expect(onB.text).toBe(first.text);

    // New state lands on Redis again: a cache fill on A is a hit on B, and the records exist.
    sim.resetCalls();
    const fresh = txnId('back');
    expect((await a.post('kyc', { txn_id: fresh, msisdn: '255712000003' })).status).toBe(200);
    expect((await b.post('kyc', { txn_id: txnId('back'), msisdn: '255712000003' })).status).toBe(200);
    expect(sim.calls().hlr).toBe(1);
    await raw.connect();
    expect(await raw.exists(`${prefix}{demo-key}:t:${fresh}`, `${prefix}c:kyc:255712000003`)).toBe(2);

    const logged = logLines.map((l) => JSON.parse(l) as { level: string; msg: string });
    expect(logged.some((l) => l.level === 'warn' && l.msg.startsWith('Redis unreachable: serving degraded'))).toBe(true);
    expect(logged).toContainEqual(expect.objectContaining({ level: 'info', msg: 'Redis reachable again: state back on Redis' }));
    expect(await (await fetch(`${a.url}/metrics`)).text()).toMatch(/verify_state_store_mode\{mode="redis"\} 1/);
  });
});

describe('a Redis Cluster master goes away mid-traffic and comes back', () => {
  let cluster: RedisClusterProcess;
  let h: Harness;

  beforeAll(async () => {
    cluster = await startRedisCluster();
    // A long command timeout: a request that waited on the dead master would stand out from CPU noise.
    h = await startHarness({ env: { REDIS_CLUSTER_NODES: cluster.nodes, REDIS_KEY_PREFIX: 'cout:', REDIS_COMMAND_TIMEOUT_MS: '3000' } });
  });
  afterAll(async () => {
    await h?.close();
    await cluster?.stop();
  });

  it('when a third of the slots are unreachable, then every request is answered, and it returns to the cluster', async () => {
    const samples: Sample[] = [];
    let running = true;
    const worker = async (w: number) => {
      for (let i = 0; running; i++) {
        const op = (i + w) % 2 === 0 ? 'kyc' : 'sim_swap';
        const started = Date.now();
        const r = await h.post(op, { txn_id: txnId(`c${w}`), msisdn: NUMBERS[(i + w) % NUMBERS.length] });
        samples.push({ at: started, status: r.status, wellFormed: wellFormed(op, r), ms: Date.now() - started });
      }
    };
    const traffic = Promise.all([0, 1, 2].map(worker));
    await until(() => samples.length >= 10, 'traffic flowing on the cluster');
    const killedAt = Date.now();
    await cluster.masters[1].stop();
    const degradeMs = await timeUntilStore(h, 'degraded');
    await until(() => samples.filter((s) => s.at > killedAt + degradeMs).length > 5, 'requests answered with a master away');
    const restartedAt = Date.now();
    await cluster.masters[1].restart();
    // Redis itself keeps a failed master's FAIL flag for 2 × cluster-node-timeout: recovery waits on that.
    const recoverMs = await timeUntilStore(h, 'redis', 15_000);
    running = false;
    await traffic;
    console.log(`Redis Cluster master outage: degraded ${degradeMs} ms after the kill, back on the cluster ${recoverMs} ms after the restart; ${samples.length} requests`);

    expect(samples.filter((s) => !s.wellFormed || s.status !== 200)).toEqual([]);
    expect(samples.filter((s) => s.at > killedAt + degradeMs && s.at < restartedAt).length).toBeGreaterThan(5);
    // Only requests already waiting on the dead master when it died may take up to the command timeout.
    expect(samples.filter((s) => s.at > killedAt + degradeMs && (s.ms ?? 0) > 2000)).toEqual([]);
    expect(degradeMs).toBeLessThan(1500);

    // Numbers the traffic never asked for: one upstream call each, then cache hits from the cluster.
    const untouched = ['255712000003', '255712000004', '255712000008'];
    h.sim.resetCalls();
    for (const n of [...untouched, ...untouched]) expect((await h.post('kyc', { txn_id: txnId('cb'), msisdn: n })).status).toBe(200);
    expect(h.sim.calls().hlr).toBe(untouched.length);
    expect((await readyz(h)).store).toBe('redis');
  });
});

describe('a service started while Redis is down', () => {
  it('when Redis is down at start, then it serves from memory at once and moves state to Redis when Redis appears', async () => {
    const redis = await startRedis();
    await redis.stop();
    // A long command timeout: a call that waited on the absent Redis would take seconds.
    const config = loadConfig({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'late:', REDIS_COMMAND_TIMEOUT_MS: '5000' });
    const store = createStateStore(config, { clock: systemClock, logger: createLogger('silent'), metrics: noopMetrics });
    try {
      await until(() => store.mode() === 'degraded', 'the store serving from memory', 5000);
      const started = Date.now();
      expect(await store.txns.claim('demo-key:L1', 'kyc|1|', 60)).toEqual({ status: 'claimed' });
      expect(await store.txns.claim('demo-key:L1', 'kyc|1|', 60)).toEqual({ status: 'in-flight', fingerprint: 'kyc|1|' });
      expect(await store.cache.get('kyc:255712000001')).toEqual({ entry: null, version: null });
      expect(Date.now() - started).toBeLessThan(1000);

      await redis.restart();
      await waitForMode(store, 'redis');
      const raw = new Redis(redis.url);
      try {
        // The claim made in memory before Redis existed is there now, for every instance to see.
        expect(await raw.get('late:{demo-key}:t:L1')).toBe('ckyc|1|');
      } finally {
        raw.disconnect();
      }
    } finally {
      await store.close();
      await redis.stop();
    }
  });
});
