import { Socket } from 'node:net';
import { createStateStore } from '../../src/verification/state/create-state-store';
import { loadConfig } from '../../src/config/config';
import { systemClock } from '../../src/kernel/clock';
import { noopMetrics } from '../../src/verification/ports/metrics';
import { Partner } from '../../src/partners/partners';
import { StateStore } from '../../src/verification/ports/state-store';
import { HlrRecord, SimRecord } from '../../src/verification/ports/upstreams';
import { VerificationService } from '../../src/verification/verification-service';
import { createLogger } from '../../src/observability/logger';
import { waitForMode } from '../contract/state-store.contract';
import { startRedisCluster } from '../support/redis-cluster';
import { startRedis } from '../../tools/process-kit/redis-server';
import { until } from '../support/until';

jest.setTimeout(30_000);

/*
 * A cache hit with a txn_id (and a rate limit) waits for ONE Redis round trip (each costs latency).
 * Every write to a Redis socket of this process is held back DELAY_MS, so each round trip
 * costs at least DELAY_MS and commands sent together overlap; a request that waits on two
 * round trips one after the other cannot answer in under 2 x DELAY_MS.
 */
const DELAY_MS = 150;
const redisPorts = new Set<number>();
let delaying = false;
type Write = (this: Socket, ...args: unknown[]) => boolean;
const originalWrite = Reflect.get(Socket.prototype, 'write') as Write;

beforeAll(() => {
  const delayedWrite: Write = function delayedWrite(this: Socket, ...args: unknown[]): boolean {
    if (!delaying || !redisPorts.has(this.remotePort ?? -1)) return originalWrite.apply(this, args);
    setTimeout(() => originalWrite.apply(this, args), DELAY_MS);
    return true;
  };
  Reflect.set(Socket.prototype, 'write', delayedWrite);
});
afterAll(() => {
  Reflect.set(Socket.prototype, 'write', originalWrite);
});

const partner: Partner = {
  name: 'rt', apiKey: 'rt-key', secret: 's', operations: new Set(['kyc', 'sim_swap']), enabled: true, signature: 'md5',
  rateLimit: { perSecond: 1000, burst: 1000 },
};

function counting<T>(record: T) {
  const u = { calls: 0, async lookup(): Promise<T> { u.calls += 1; return record; } };
  return u;
}

async function expectOneRoundTrip(env: Record<string, string>): Promise<void> {
  const store: StateStore = createStateStore(loadConfig({ ...env, REDIS_KEY_PREFIX: 'rt:', LOG_LEVEL: 'silent' }),
    { clock: systemClock, logger: createLogger('silent'), metrics: noopMetrics });
  try {
    await waitForMode(store, 'redis');
    const hlr = counting<HlrRecord>({ status: 'active', paymentType: 'prepaid' });
    const sim = counting<SimRecord>({ lastSimSwapAtMs: null });
    const service = new VerificationService({
      hlr, sim, store, clock: systemClock, metrics: noopMetrics,
      settings: { kycCacheTtlS: 300, kycStaleS: 3600, simSwapCacheTtlS: 30, negativeCacheTtlS: 60, simSwapMaxAgeHours: 240, txnTtlS: 86400, txnInFlightTtlS: 60 },
    });
    const input = (txnId: string, operation: 'kyc' | 'sim_swap' = 'kyc') => ({ operation, msisdnRaw: '0712000001', msisdn: '255712000001', txnId });
    // Fill both cache entries (misses), without delay.
    await service.verify(partner, input('prime-kyc'));
    await service.verify(partner, input('prime-sim', 'sim_swap'));
    expect({ hlr: hlr.calls, sim: sim.calls }).toEqual({ hlr: 1, sim: 1 });

    delaying = true;
    try {
      for (const [txnId, operation] of [['hit-kyc', 'kyc'], ['hit-sim', 'sim_swap']] as const) {
        const started = performance.now();
        const answer = await service.verify(partner, input(txnId, operation));
        const ms = performance.now() - started;
        expect(answer.replayed).toBe(false);
        // At least one round trip (the delay works), fewer than two.
        expect(ms).toBeGreaterThanOrEqual(DELAY_MS - 5);
        expect(ms).toBeLessThan(1.8 * DELAY_MS);
      }
      // The completion written after the answer is there for a retry (a replay, one round trip).
      // A claim of a recorded txn_id changes nothing and says 'done'.
      await until(async () => (await store.txns.claim(`${partner.apiKey}:hit-kyc`, 'probe', 60)).status === 'done', 'the completion of hit-kyc in Redis', 10_000);
      const started = performance.now();
      expect((await service.verify(partner, input('hit-kyc'))).replayed).toBe(true);
      expect(performance.now() - started).toBeLessThan(1.8 * DELAY_MS);
    } finally {
      delaying = false;
    }
    expect({ hlr: hlr.calls, sim: sim.calls }).toEqual({ hlr: 1, sim: 1 });
    expect(store.mode()).toBe('redis');
  } finally {
    await store.close();
  }
}

describe('a cache hit with a txn_id and a rate limit waits for one Redis round trip', () => {
  it('when Redis is standalone, then one round trip', async () => {
    const redis = await startRedis();
    redisPorts.add(redis.port);
    try {
      await expectOneRoundTrip({ REDIS_URL: redis.url });
    } finally {
      await redis.stop();
    }
  });

  it('when Redis is a Cluster, whose cache and txn_id keys sit in different slots, then still one round trip', async () => {
    const cluster = await startRedisCluster();
    for (const m of cluster.masters) redisPorts.add(m.port);
    try {
      await expectOneRoundTrip({ REDIS_CLUSTER_NODES: cluster.nodes });
    } finally {
      await cluster.stop();
    }
  });
});
