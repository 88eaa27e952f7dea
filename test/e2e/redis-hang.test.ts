import { Redis } from 'ioredis';
import { Harness, postJson, startHarness, txnId } from '../support/harness';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { until } from '../support/until';

jest.setTimeout(30_000);

const EVENTS_TOKEN = 'swap-events-token-0123456789';
const COMMAND_TIMEOUT_MS = 200;
const HEALTH_TIMEOUT_MS = 1000;

/** The SIM swap answer of a reply (harness replies are untyped). */
const swapped = (r: { body: unknown }) => (r.body as { result: { sim_swapped: string } }).result.sim_swapped;
const code = (r: { body: unknown }) => (r.body as { response?: { code: string }; code?: string }).response?.code ?? (r.body as { code?: string }).code;

async function store(h: Harness): Promise<string> {
  return ((await (await fetch(`${h.url}/readyz`)).json()) as { store: string }).store;
}

async function timeouts(h: Harness): Promise<number> {
  const text = await (await fetch(`${h.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('verify_state_store_failures_total{outcome="timeout"}'));
  return Number(line?.split(' ')[1] ?? 0);
}

describe('Redis hangs without closing its connections', () => {
  let redis: RedisProcess;
  let h: Harness;
  let raw: Redis;
  const prefix = 'hang:';
  const msisdn = '255712000001';

  beforeAll(async () => {
    redis = await startRedis();
    h = await startHarness({
      env: {
        REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix, EVENTS_TOKEN,
        REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS), REDIS_HEALTH_TIMEOUT_MS: String(HEALTH_TIMEOUT_MS),
      },
    });
    raw = new Redis(redis.url);
  });
  afterAll(async () => {
    raw?.disconnect();
    await h?.close();
    await redis?.stop();
  });

  it('when Redis is slower than the command timeout for less than the health timeout, then a claim is answered 9999/503 at the timeout, the store stays on Redis, and a retry of the txn_id is answered afresh', async () => {
    expect(swapped(await h.post('sim_swap', { txn_id: txnId(), msisdn }))).toBe('false');
    const before = await timeouts(h);

    // Every command, PING included, waits inside Redis for 500 ms: slow, not gone.
    await raw.call('CLIENT', 'PAUSE', '500', 'ALL');
    const id = txnId();
    const started = Date.now();
    const during = await h.post('sim_swap', { txn_id: id, msisdn });
    const waitedMs = Date.now() - started;

    // The claim's outcome is unknown: never granted from memory, answered as retryable.
    expect(during.status).toBe(503);
    expect(code(during)).toBe('9999');
    expect(during.headers.get('retry-after')).toBe('1');
    expect(waitedMs).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 5);
    expect(waitedMs).toBeLessThan(HEALTH_TIMEOUT_MS);
    expect(await timeouts(h)).toBeGreaterThan(before);

    // The claim, run late by Redis, was released behind it: the partner's retry is answered.
    await until(async () => (await raw.exists(`${prefix}{demo-key}:t:${id}`)) === 0, 'the timed-out claim released in Redis', 5000);
    const retry = await h.post('sim_swap', { txn_id: id, msisdn });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    // Positive control for "stays on Redis": the answer's record is in Redis, not in memory.
    await until(async () => /^d/.test(await raw.get(`${prefix}{demo-key}:t:${id}`) ?? ''), 'the answer recorded in Redis', 5000);
    expect(await store(h)).toBe('redis');
  });

  it('when Redis hangs longer than the health timeout, then the store goes degraded, answers from memory, and a swap event queued meanwhile still reaches Redis', async () => {
    expect(swapped(await h.post('sim_swap', { txn_id: txnId(), msisdn }))).toBe('false');
    expect(await raw.exists(`${prefix}c:sim:${msisdn}`)).toBe(1);
    h.sim.upsert({ msisdn, status: 'active', paymentType: 'prepaid', iccid: '8925500000000000001', lastSimSwapAt: new Date(Date.now() - 60_000).toISOString() });

    const pauseMs = HEALTH_TIMEOUT_MS * 4;
    await raw.call('CLIENT', 'PAUSE', String(pauseMs), 'ALL');
    const started = Date.now();
    const first = await h.post('sim_swap', { txn_id: txnId(), msisdn });
    expect(first.status).toBe(503);
    // The health check gives up after HEALTH_TIMEOUT_MS: then, and only then, memory serves.
    await until(async () => (await store(h)) === 'degraded', 'the store judged unavailable', pauseMs);
    const degradedAfterMs = Date.now() - started;
    expect(degradedAfterMs).toBeGreaterThanOrEqual(HEALTH_TIMEOUT_MS - 50);

    const during = await h.post('sim_swap', { txn_id: txnId(), msisdn });
    expect(during.status).toBe(200);
    // The cache is bypassed while degraded: the upstream's fresh answer, not the cached "false".
    expect(swapped(during)).toBe('true');
    const event = await postJson(`${h.url}/internal/events/sim-swap`, { msisdn }, { headers: { authorization: `Bearer ${EVENTS_TOKEN}` } });
    expect(event.status).toBe(503);
    const failure = event.body as { code: string; desc: string };
    expect(Object.keys(failure).sort()).toEqual(['code', 'desc']);
    expect(failure.code).toBe('9999');
    expect(failure.desc).toMatch(/^Unexpected system Error: state store unavailable/);

    await until(async () => (await store(h)) === 'redis', 'the store back on Redis', pauseMs + 10_000);
    console.log(`Redis hang: degraded ${degradedAfterMs} ms after the pause began (health timeout ${HEALTH_TIMEOUT_MS} ms); back on Redis ${Date.now() - started} ms after (pause ${pauseMs} ms)`);
    // The queued eviction reached Redis: the stale "false" is gone without waiting for its TTL,
    // replaced by the eviction's tombstone.
    await until(async () => /^!/.test(await raw.get(`${prefix}c:sim:${msisdn}`) ?? ''), 'the queued eviction in Redis', 5000);
    expect(await raw.get(`${prefix}c:sim:${msisdn}`)).toMatch(/^![0-9a-f]{16}$/);
    expect(swapped(await h.post('sim_swap', { txn_id: txnId(), msisdn }))).toBe('true');
  });
});
