import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPartnersPath } from '../../src/kernel/repo-paths';
import { defaultFixturesPath, loadFixtures } from '../../src/simulator/fixtures';
import { Simulator, createSimulator } from '../../src/simulator/simulator';
import { Harness, postJson, startHarness, txnId } from '../support/harness';
import { stringMatching } from '../support/matchers';
import { RedisClusterProcess, startRedisCluster } from '../support/redis-cluster';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { signedQuery } from '../support/signing';
import { until } from '../support/until';

jest.setTimeout(20_000);

const EVENTS_TOKEN = 'swap-events-token-0123456789';
const LIMITED = { apiKey: 'limited-key', secret: 'limited-secret' };

/** The demo registry plus a partner with a small rate limit that barely refills during a test. */
function partnersFile(): string {
  const demo = JSON.parse(readFileSync(defaultPartnersPath(), 'utf8')) as { partners: unknown[] };
  demo.partners.push({ name: 'limited', ...LIMITED, operations: ['kyc', 'sim_swap'], enabled: true, rateLimit: { perSecond: 0.01, burst: 3 } });
  const file = join(mkdtempSync(join(tmpdir(), 'vc-partners-')), 'partners.json');
  writeFileSync(file, JSON.stringify(demo));
  return file;
}

let redis: RedisProcess;
let cluster: RedisClusterProcess;
beforeAll(async () => {
  [redis, cluster] = await Promise.all([startRedis(), startRedisCluster()]);
});
afterAll(async () => {
  await Promise.all([redis?.stop(), cluster?.stop()]);
});

describe.each([
  ['a standalone Redis', () => ({ REDIS_URL: redis.url })],
  ['a Redis Cluster', () => ({ REDIS_CLUSTER_NODES: cluster.nodes })],
])('two service instances on %s behave as one service', (_name, stateEnv) => {
  let sim: Simulator;
  let a: Harness;
  let b: Harness;

  beforeAll(async () => {
    sim = createSimulator({ subscribers: loadFixtures(defaultFixturesPath()), synthetic: false });
    const simBase = await sim.listen(0);
    // Same Redis, same prefix, same upstream: two instances behind one load balancer.
    const env = {
      ...stateEnv(), REDIS_KEY_PREFIX: `two${Date.now().toString(36)}:`, SIM_BASE: simBase,
      HLR_URL: `${simBase}/hlr`, SIM_URL: `${simBase}/sim`, PARTNERS_FILE: partnersFile(), EVENTS_TOKEN,
    };
    [a, b] = await Promise.all([startHarness({ simulator: sim, env }), startHarness({ simulator: sim, env })]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await sim?.close();
  });
  beforeEach(() => {
    sim.resetFaults();
    sim.resetCalls();
  });

  it('when a txn_id answered on A comes to B, then B replays it without an upstream call, and refuses it for another number', async () => {
    const id = txnId();
    const onA = await a.post('kyc', { txn_id: id, msisdn: '255712000002' });
    expect(onA.status).toBe(200);
    expect(sim.calls().hlr).toBe(1);
    const onB = await b.post('kyc', { txn_id: id, msisdn: '255712000002' });
    expect(onB.status).toBe(200);
    expect(onB.text).toBe(onA.text);
    expect(onB.headers.get('idempotent-replayed')).toBe('true');
    expect(sim.calls().hlr).toBe(1);
    const other = await b.post('kyc', { txn_id: id, msisdn: '255712000003' });
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ code: '11111', desc: stringMatching(/^Error Process: txn_id already used/) });
  });

  it('when a txn_id is still in flight on A, then B refuses it with 409', async () => {
    sim.setFault('sim', { latencyMs: 300 });
    const id = txnId();
    const simCalls = sim.calls().sim;
    const first = a.post('sim_swap', { txn_id: id, msisdn: '255712000007' });
    // In flight on A: its lookup has reached the slow SIM management (the txn_id is claimed before).
    await until(() => sim.calls().sim > simCalls, 'the first lookup at SIM management');
    const second = await b.post('sim_swap', { txn_id: id, msisdn: '255712000007' });
    expect(second.status).toBe(409);
    expect(second.body.response?.desc).toMatch(/in flight/);
    expect((await first).status).toBe(200);
  });

  it('when A filled the cache, then B serves from it and the upstream sees one call per system', async () => {
    const kycA = await a.post('kyc', { txn_id: txnId(), msisdn: '255712000005' });
    const kycB = await b.post('kyc', { txn_id: txnId(), msisdn: '0712000005' });
    const swapA = await a.post('sim_swap', { txn_id: txnId(), msisdn: '255712000006' });
    const swapB = await b.post('sim_swap', { txn_id: txnId(), msisdn: '+255712000006' });
    expect([kycA.status, kycB.status, swapA.status, swapB.status]).toEqual([200, 200, 200, 200]);
    expect(kycB.body.result).toEqual({ ...kycA.body.result, msisdn: '0712000005' });
    expect(swapB.body.result).toEqual({ ...swapA.body.result, msisdn: '+255712000006' });
    expect(sim.calls()).toEqual({ hlr: 1, sim: 1, crm: 0 });
  });

  it('when a partner uses both instances, then one rate limit holds across them, answering 429 with Retry-After', async () => {
    const post = (h: Harness) => h.post('kyc', { txn_id: txnId(), msisdn: '255712000001' }, { query: signedQuery(LIMITED) });
    const statuses = [];
    for (const h of [a, b, a, b, a]) statuses.push((await post(h)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const refused = await post(b);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ code: '11111', desc: 'Error Process: rate limit exceeded' });
    // One token per 100 s: the wait is the whole refill time, not a per-instance guess.
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(99);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(100);
  });

  it('when the swap event reached B, then A shows the SIM swap at once', async () => {
    const msisdn = '255712000002';
    const before = await a.post('sim_swap', { txn_id: txnId(), msisdn });
    expect(before.body.result).toEqual({ msisdn, sim_swapped: 'false' });
    sim.upsert({ msisdn, status: 'active', paymentType: 'postpaid', iccid: '8925500000000000099', lastSimSwapAt: new Date(Date.now() - 60_000).toISOString() });
    // Still cached: without the event the old answer would stand for SIM_SWAP_CACHE_TTL_S.
    expect((await a.post('sim_swap', { txn_id: txnId(), msisdn })).body.result?.sim_swapped).toBe('false');
    const event = await postJson(`${b.url}/internal/events/sim-swap`, { msisdn: '0712000002' }, { headers: { authorization: `Bearer ${EVENTS_TOKEN}` } });
    expect(event.status).toBe(200);
    const after = await a.post('sim_swap', { txn_id: txnId(), msisdn });
    expect(after.body.result).toEqual({ msisdn, sim_swapped: 'true', sim_swapped_dt: stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/) });
    expect(sim.calls().sim).toBe(2);
  });
});
