import { Redis } from 'ioredis';
import { createStateStore } from '../../src/verification/state/create-state-store';
import { loadConfig } from '../../src/config/config';
import { systemClock } from '../../src/kernel/clock';
import { FallbackStateStore } from '../../src/verification/state/fallback-state-store';
import { MemoryStateStore } from '../../src/verification/state/memory-state-store';
import { RedisStateStore } from '../../src/verification/state/redis-state-store';
import { Metrics, noopMetrics, StateStoreFailure } from '../../src/verification/ports/metrics';
import { StateStore } from '../../src/verification/ports/state-store';
import { createLogger } from '../../src/observability/logger';
import { describeStateStoreContract, waitForMode } from '../contract/state-store.contract';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';

let redis: RedisProcess;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

function openStore(prefix: string, clock = systemClock): StateStore {
  const config = loadConfig({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix, LOG_LEVEL: 'silent' });
  return createStateStore(config, { clock, logger: createLogger('silent'), metrics: noopMetrics });
}

describeStateStoreContract('standalone Redis', async (clock) => {
  const store = openStore('contract:', clock);
  await waitForMode(store, 'redis');
  return { store, mode: 'redis', close: () => store.close() };
});

describe('standalone Redis key layout', () => {
  let store: StateStore;
  let raw: Redis;
  beforeAll(async () => {
    store = openStore('lay:');
    raw = new Redis(redis.url);
    await waitForMode(store, 'redis');
  });
  afterAll(async () => {
    await store.close();
    raw.disconnect();
  });

  it('when keys are written, then each is under the prefix, with compact values and the TTL it was given', async () => {
    await store.cache.set('kyc:255712000001', { value: 'active/prepaid', storedAtMs: 1_763_622_900_000 }, 300, null);
    await store.txns.claim('demo-key:T1', 'kyc|0712000001|', 60);
    await store.txns.claim('demo-key:T2', 'kyc|0712000002|', 60);
    await store.txns.complete('demo-key:T2', 'kyc|0712000002|', '{"r":1}', 86400);
    await store.rateLimiter.take('demo-key', { perSecond: 5, burst: 10 });

    // A partner's txn_ids and bucket share its hash tag, so admission is one script on one slot.
    expect((await raw.keys('lay:*')).sort()).toEqual(['lay:c:kyc:255712000001', 'lay:{demo-key}:r', 'lay:{demo-key}:t:T1', 'lay:{demo-key}:t:T2']);
    expect(await raw.get('lay:c:kyc:255712000001')).toBe('mi73jew0|active/prepaid');
    expect(await raw.get('lay:{demo-key}:t:T1')).toBe('ckyc|0712000001|');
    expect(await raw.get('lay:{demo-key}:t:T2')).toBe('d15:kyc|0712000002|{"r":1}');
    const bucket = await raw.hgetall('lay:{demo-key}:r');
    expect(Object.keys(bucket).sort()).toEqual(['t', 'u']);
    expect(bucket.t).toBe('9');
    expect(bucket.u).toMatch(/^\d{13}$/);
    expect(await raw.pttl('lay:c:kyc:255712000001')).toBeGreaterThan(299_000);
    expect(await raw.pttl('lay:{demo-key}:t:T1')).toBeGreaterThan(59_000);
    expect(await raw.pttl('lay:{demo-key}:t:T2')).toBeGreaterThan(86_399_000);
    expect(await raw.pttl('lay:{demo-key}:r')).toBeGreaterThan(2000);
  });

  it('when services share one Redis with two prefixes, then they do not see each other', async () => {
    const other = openStore('other:');
    await waitForMode(other, 'redis');
    try {
      await store.cache.set('sim:255712000006', { value: 'n', storedAtMs: 1 }, 60, null);
      expect(await other.cache.get('sim:255712000006')).toEqual({ entry: null, version: null });
      expect(await other.txns.claim('demo-key:T1', 'sim_swap|1|', 60)).toEqual({ status: 'claimed' });
    } finally {
      await other.close();
    }
  });

  it('when a command fails, then the error surfaces instead of being mistaken for an outage', async () => {
    await raw.hset('lay:c:kyc:255712000010', 'not', 'a string');
    await expect(store.cache.get('kyc:255712000010')).rejects.toThrow(/WRONGTYPE/);
    expect(store.mode()).toBe('redis');
  });

  it('when a cache value cannot be decoded, then it reads as a miss', async () => {
    await raw.set('lay:c:kyc:255712000009', 'garbage-without-separator', 'EX', 60);
    expect(await store.cache.get('kyc:255712000009')).toEqual({ entry: null, version: 'garbage-without-separator' });
  });
});

describe('a programming error inside a Redis adapter', () => {
  let redisStore: RedisStateStore;
  let store: FallbackStateStore;
  const failures: StateStoreFailure[] = [];
  beforeAll(async () => {
    const metrics: Metrics = { ...noopMetrics, stateStoreFailure: (kind) => { failures.push(kind); } };
    redisStore = new RedisStateStore({ url: redis.url, commandTimeoutMs: 500, keyPrefix: 'bug:', clock: systemClock });
    const memory = new MemoryStateStore({ clock: systemClock, maxCacheEntries: 100, maxTxnEntries: 100 });
    store = new FallbackStateStore(redisStore, memory, {
      clock: systemClock, logger: createLogger('silent'), metrics, commandTimeoutMs: 500, healthTimeoutMs: 500, probeIntervalMs: 1000, maxJournalEntries: 100, maxDegradedTxnBytes: 1_000_000,
    });
    await waitForMode(store, 'redis');
  });
  afterAll(() => store.close());

  it('when an adapter method throws a TypeError, then the error surfaces, is counted, and the store stays on Redis', async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'fingerprint')");
    const claim = jest.spyOn(redisStore.txns, 'claim').mockRejectedValueOnce(bug);
    try {
      await expect(store.txns.claim('demo-key:B1', 'kyc|0712000001|', 60)).rejects.toBe(bug);
    } finally {
      claim.mockRestore();
    }
    expect(store.mode()).toBe('redis');
    expect(failures).toEqual(['command_error']);
    // The next call goes to Redis, not to process memory.
    expect(await store.txns.claim('demo-key:B1', 'kyc|0712000001|', 60)).toEqual({ status: 'claimed' });
    expect(await redisStore.txns.claim('demo-key:B1', 'kyc|0712000001|', 60)).toEqual({ status: 'in-flight', fingerprint: 'kyc|0712000001|' });
  });

  it('when a cache read throws synchronously with a TypeError, then it surfaces and the store stays on Redis', async () => {
    const get = jest.spyOn(redisStore.cache, 'get').mockImplementationOnce(() => {
      throw new TypeError('x.split is not a function');
    });
    try {
      await expect(store.cache.get('kyc:255712000011')).rejects.toThrow(TypeError);
    } finally {
      get.mockRestore();
    }
    expect(store.mode()).toBe('redis');
  });
});
