import { Redis } from 'ioredis';
import { Harness, postJson, startHarness, txnId } from '../support/harness';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { until } from '../support/until';

jest.setTimeout(20_000);

const EVENTS_TOKEN = 'swap-events-token-0123456789';
const COMMAND_TIMEOUT_MS = 200;

/** The SIM swap answer of a reply (harness replies are untyped). */
const swapped = (r: { body: unknown }) => (r.body as { result: { sim_swapped: string } }).result.sim_swapped;

async function store(h: Harness): Promise<string> {
  return ((await (await fetch(`${h.url}/readyz`)).json()) as { store: string }).store;
}

describe('Redis hangs without closing its connections', () => {
  let redis: RedisProcess;
  let h: Harness;
  let raw: Redis;
  const prefix = 'hang:';

  beforeAll(async () => {
    redis = await startRedis();
    h = await startHarness({ env: { REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix, REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS), EVENTS_TOKEN } });
    raw = new Redis(redis.url);
  });
  afterAll(async () => {
    raw?.disconnect();
    await h?.close();
    await redis?.stop();
  });

  it('when Redis hangs, then a request waits no longer than the command timeout, and a swap event queued meanwhile still reaches Redis', async () => {
    const msisdn = '255712000001';
    expect(swapped(await h.post('sim_swap', { txn_id: txnId(), msisdn }))).toBe('false');
    expect(await raw.exists(`${prefix}c:sim:${msisdn}`)).toBe(1);
    h.sim.upsert({ msisdn, status: 'active', paymentType: 'prepaid', iccid: '8925500000000000001', lastSimSwapAt: new Date(Date.now() - 60_000).toISOString() });

    // Every command, PING included, now waits inside Redis for 1.5 s: a hung server, no RST.
    await raw.call('CLIENT', 'PAUSE', '1500', 'ALL');
    const started = Date.now();
    const during = await h.post('sim_swap', { txn_id: txnId(), msisdn });
    const waitedMs = Date.now() - started;
    expect(during.status).toBe(200);
    // The cache is bypassed while degraded: the upstream's fresh answer, not the cached "false".
    expect(swapped(during)).toBe('true');
    // It waited for the timeout, not for the 1.5 s pause.
    expect(waitedMs).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 5);
    expect(waitedMs).toBeLessThan(1000);
    expect(await store(h)).toBe('degraded');
    const event = await postJson(`${h.url}/internal/events/sim-swap`, { msisdn }, { headers: { authorization: `Bearer ${EVENTS_TOKEN}` } });
    expect(event.status).toBe(503);
    const failure = event.body as { code: string; desc: string };
    expect(Object.keys(failure).sort()).toEqual(['code', 'desc']);
    expect(failure.code).toBe('9999');
    expect(failure.desc).toMatch(/^Unexpected system Error: state store unavailable/);

    await until(async () => (await store(h)) === 'redis', 'the store back on Redis', 5000, 20);
    console.log(`Redis hang: first request answered in ${waitedMs} ms; back on Redis ${Date.now() - started} ms after the pause began (pause 1500 ms)`);
    // The queued eviction reached Redis: the stale "false" is gone without waiting for its TTL,
    // replaced by the eviction's tombstone.
    await until(async () => /^!/.test(await raw.get(`${prefix}c:sim:${msisdn}`) ?? ''), 'the queued eviction in Redis', 5000);
    expect(await raw.get(`${prefix}c:sim:${msisdn}`)).toMatch(/^![0-9a-f]{16}$/);
    expect(swapped(await h.post('sim_swap', { txn_id: txnId(), msisdn }))).toBe('true');
  });
});
