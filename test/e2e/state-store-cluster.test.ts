import { Redis } from 'ioredis';
import { createStateStore } from '../../src/verification/state/create-state-store';
import { loadConfig } from '../../src/config/config';
import { systemClock } from '../../src/kernel/clock';
import { noopMetrics } from '../../src/verification/ports/metrics';
import { StateStore } from '../../src/verification/ports/state-store';
import { createLogger } from '../../src/observability/logger';
import { describeStateStoreContract, waitForMode } from '../contract/state-store.contract';
import { RedisClusterProcess, startRedisCluster } from '../support/redis-cluster';

jest.setTimeout(20_000);

let cluster: RedisClusterProcess;
beforeAll(async () => {
  cluster = await startRedisCluster();
});
afterAll(() => cluster?.stop());

function openStore(prefix: string, clock = systemClock): StateStore {
  const config = loadConfig({ REDIS_CLUSTER_NODES: cluster.nodes, REDIS_KEY_PREFIX: prefix, LOG_LEVEL: 'silent' });
  return createStateStore(config, { clock, logger: createLogger('silent'), metrics: noopMetrics });
}

describeStateStoreContract('Redis Cluster (3 masters)', async (clock) => {
  const store = openStore('contract:', clock);
  await waitForMode(store, 'redis');
  return { store, mode: 'redis', close: () => store.close() };
});

describe('Redis Cluster key placement', () => {
  it("when a number's entries, txn_ids and buckets are stored, then they spread over the masters without a cross-slot command", async () => {
    const store = openStore('spread:');
    await waitForMode(store, 'redis');
    try {
      const numbers = Array.from({ length: 30 }, (_, i) => `2557120${String(i).padStart(5, '0')}`);
      await Promise.all(numbers.flatMap((n) => [
        store.cache.set(`kyc:${n}`, { value: 'active/prepaid', storedAtMs: 1 }, 60, null),
        store.cache.set(`sim:${n}`, { value: 'n', storedAtMs: 1 }, 60, null),
        store.txns.claim(`demo-key:${n}`, `kyc|${n}|`, 60),
        store.rateLimiter.take(`key-${n}`, { perSecond: 1, burst: 1 }),
      ]));
      // Every master holds some of them: the cluster is really sharding this store's keys.
      const sizes = await Promise.all(cluster.masters.map(async (m) => {
        const raw = new Redis(m.port, '127.0.0.1');
        try {
          return (await raw.keys('spread:*')).length;
        } finally {
          raw.disconnect();
        }
      }));
      expect(sizes.every((s) => s > 0)).toBe(true);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(numbers.length * 4);
      // The swap event's eviction names two keys in different slots; it must still remove both.
      await store.cache.delete(numbers.flatMap((n) => [`kyc:${n}`, `sim:${n}`]));
      for (const n of numbers) {
        expect((await store.cache.get(`kyc:${n}`)).entry).toBeNull();
        expect((await store.cache.get(`sim:${n}`)).entry).toBeNull();
      }
      expect(store.mode()).toBe('redis');
    } finally {
      await store.close();
    }
  });
});
