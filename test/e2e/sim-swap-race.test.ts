import { defaultFixturesPath, loadFixtures } from '../../src/simulator/fixtures';
import { Simulator, createSimulator } from '../../src/simulator/simulator';
import { Harness, Reply, postJson, startHarness, txnId } from '../support/harness';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { until } from '../support/until';

/*
 * A SIM swap event while a lookup of the number is in flight. SIM management is made
 * slow (admin fault latency), the swap is recorded there (admin upsert) and reported (the event
 * route), all over real HTTP. No request after the event may get, or leave in the cache, the
 * answer of the lookup that started before it.
 */

jest.setTimeout(30_000);

const EVENTS_TOKEN = 'race-events-token-0123456789';
const LATENCY_MS = 800;

const swappedOf = (r: Reply) => (r.body as { result: { sim_swapped: string } }).result.sim_swapped;

async function admin(simUrl: string, method: 'PUT', path: string, body: unknown): Promise<void> {
  const res = await fetch(`${simUrl}/__admin/${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`simulator admin ${path}: ${res.status} ${await res.text()}`);
}

async function simCalls(simUrl: string): Promise<number> {
  return ((await (await fetch(`${simUrl}/__admin/calls`)).json()) as { sim: number }).sim;
}

/** Resolves once SIM management has received `n` calls in all: the lookup is then in flight. */
async function untilSimCalls(simUrl: string, n: number): Promise<void> {
  await until(async () => (await simCalls(simUrl)) >= n, `SIM management seeing call ${n}`, 5000, 10);
}

/** A subscriber of our own, never swapped, so no other test shares its cache entries. */
async function freshSubscriber(simUrl: string, msisdn: string): Promise<void> {
  await admin(simUrl, 'PUT', `subscribers/${msisdn}`, { status: 'active', paymentType: 'prepaid', iccid: '8925500000000000777', lastSimSwapAt: null });
}

/** The swap as it happens in production: SIM management records it, then sends the event. */
async function swap(simUrl: string, serviceUrl: string, msisdn: string): Promise<void> {
  await admin(simUrl, 'PUT', `subscribers/${msisdn}`, { status: 'active', paymentType: 'prepaid', iccid: '8925500000000000778', lastSimSwapAt: 'now-30m' });
  const event = await postJson(`${serviceUrl}/internal/events/sim-swap`, { msisdn }, { headers: { authorization: `Bearer ${EVENTS_TOKEN}` } });
  expect(event.status).toBe(200);
}

const ask = (h: Harness, msisdn: string) => h.post('sim_swap', { txn_id: txnId(), msisdn });

/**
 * With SIM management slow, asks `asker` about a number of our own, waits until that lookup has
 * reached SIM management, then swaps the SIM with the event sent to `eventTo`. Returns the
 * earlier query, still in flight, and SIM management's call count before it.
 */
async function queryInFlightAcrossSwap(simUrl: string, asker: Harness, eventTo: string, msisdn: string) {
  await freshSubscriber(simUrl, msisdn);
  await admin(simUrl, 'PUT', 'faults/sim', { latencyMs: LATENCY_MS });
  const calls = await simCalls(simUrl);
  const earlier = ask(asker, msisdn);
  await untilSimCalls(simUrl, calls + 1);
  await swap(simUrl, eventTo, msisdn);
  return { earlier, calls };
}

describe('a SIM swap event while a lookup of the number is in flight, on one instance', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ env: { EVENTS_TOKEN, SIM_SWAP_CACHE_TTL_S: '30' } }); });
  afterAll(() => h.close());
  afterEach(() => h.sim.resetFaults());

  it('when a query comes after the event, then it gets the swap, not the answer of the lookup that was in flight', async () => {
    const msisdn = '255712100001';
    const { earlier: before } = await queryInFlightAcrossSwap(h.simUrl, h, h.url, msisdn);
    const after = await ask(h, msisdn);
    expect(after.status).toBe(200);
    expect(swappedOf(after)).toBe('true');
    // The earlier request started before the swap: its answer may be the old one.
    expect(swappedOf(await before)).toBe('false');

    await admin(h.simUrl, 'PUT', 'faults/sim', { latencyMs: 0 });
    expect(swappedOf(await ask(h, msisdn))).toBe('true');
  });

  it('when the lookup in flight finishes, then it does not leave its pre-swap answer in the cache', async () => {
    const msisdn = '255712100002';
    const { earlier: before, calls } = await queryInFlightAcrossSwap(h.simUrl, h, h.url, msisdn);
    expect(swappedOf(await before)).toBe('false');

    await admin(h.simUrl, 'PUT', 'faults/sim', { latencyMs: 0 });
    const next = await ask(h, msisdn);
    expect(swappedOf(next)).toBe('true');
    expect(await simCalls(h.simUrl)).toBe(calls + 2);
  });
});

describe('a SIM swap event on one instance while another has a lookup in flight (two instances, one Redis)', () => {
  let redis: RedisProcess;
  let sim: Simulator;
  let simUrl: string;
  let a: Harness;
  let b: Harness;

  beforeAll(async () => {
    redis = await startRedis();
    sim = createSimulator({ subscribers: loadFixtures(defaultFixturesPath()), synthetic: false });
    simUrl = await sim.listen(0);
    const env = {
      REDIS_URL: redis.url, REDIS_KEY_PREFIX: `race${Date.now().toString(36)}:`, SIM_BASE: simUrl,
      HLR_URL: `${simUrl}/hlr`, SIM_URL: `${simUrl}/sim`, EVENTS_TOKEN, SIM_SWAP_CACHE_TTL_S: '30',
    };
    [a, b] = await Promise.all([startHarness({ simulator: sim, env }), startHarness({ simulator: sim, env })]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await sim?.close();
    await redis?.stop();
  });

  it("when the event reached A, then B neither answers a later query from its earlier lookup nor writes that lookup's answer into the shared cache", async () => {
    const msisdn = '255712100003';
    // The event reaches A only: B learns of it through the shared cache alone.
    const { earlier: earlierOnB, calls } = await queryInFlightAcrossSwap(simUrl, b, a.url, msisdn);
    const laterOnB = await ask(b, msisdn);
    expect(swappedOf(laterOnB)).toBe('true');
    expect(swappedOf(await earlierOnB)).toBe('false');

    await admin(simUrl, 'PUT', 'faults/sim', { latencyMs: 0 });
    expect(swappedOf(await ask(a, msisdn))).toBe('true');
    expect(swappedOf(await ask(b, msisdn))).toBe('true');
    // Both served from the shared cache that B's later lookup filled.
    expect(await simCalls(simUrl)).toBe(calls + 2);
  });

  it("when B's earlier lookup finishes after the event with no query in between, then it leaves nothing stale for either instance", async () => {
    const msisdn = '255712100004';
    const { earlier: earlierOnB } = await queryInFlightAcrossSwap(simUrl, b, a.url, msisdn);
    expect(swappedOf(await earlierOnB)).toBe('false');

    await admin(simUrl, 'PUT', 'faults/sim', { latencyMs: 0 });
    expect(swappedOf(await ask(a, msisdn))).toBe('true');
    expect(swappedOf(await ask(b, msisdn))).toBe('true');
  });
});
