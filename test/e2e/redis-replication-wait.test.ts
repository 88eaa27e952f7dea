import { Redis } from 'ioredis';
import { createStateStore } from '../../src/verification/state/create-state-store';
import { SHORT_WAIT_BACKOFF_MS } from '../../src/verification/state/redis-replication-wait';
import { loadConfig } from '../../src/config/config';
import { Clock, systemClock } from '../../src/kernel/clock';
import { Metrics, ReplicationWaitOutcome, noopMetrics } from '../../src/verification/ports/metrics';
import { Partner } from '../../src/partners/partners';
import { StateStore } from '../../src/verification/ports/state-store';
import { VerificationService } from '../../src/verification/verification-service';
import { createLogger } from '../../src/observability/logger';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { TestClock, waitForMode } from '../contract/state-store.contract';
import { startLaggingProxy } from '../support/lagging-proxy';
import { until } from '../support/until';

jest.setTimeout(30_000);

/*
 * With REDIS_WAIT_REPLICAS, a txn_id's claim and its answer's record are on a replica
 * before the answer goes out, so a failover (the replica promoted) cannot lose them. A real
 * master and replica; the replica is held still with DEBUG SLEEP, so "waited for it" shows as
 * time, and its copy of the record is read the moment the answer arrives.
 */

const partner: Partner = {
  name: 'rw', apiKey: 'rw-key', secret: 's', operations: new Set(['kyc', 'sim_swap']), enabled: true, signature: 'md5',
  rateLimit: { perSecond: 1000, burst: 1000 },
};
const input = (txnId: string) => ({ operation: 'kyc' as const, msisdnRaw: '0712000001', msisdn: '255712000001', txnId });

let master: RedisProcess;
let replica: RedisProcess;
let replicaClient: Redis;

beforeAll(async () => {
  master = await startRedis();
  replica = await startRedis(['--replicaof', '127.0.0.1', String(master.port), '--enable-debug-command', 'local']);
  replicaClient = new Redis(replica.url, { lazyConnect: true });
  await replicaClient.connect();
  await waitForLink(replicaClient);
});

afterAll(async () => {
  replicaClient.disconnect();
  await replica.stop();
  await master.stop();
});

function countingMetrics() {
  const waits: Record<ReplicationWaitOutcome, number> = { acked: 0, short: 0, skipped: 0 };
  const metrics: Metrics = { ...noopMetrics, replicationWait: (o) => { waits[o] += 1; } };
  return { metrics, waits };
}

async function waitForLink(client: Redis): Promise<void> {
  await until(async () => /master_link_status:up/.test(await client.info('replication')), 'the replica linked to its master', 10_000, 50);
}

async function serviceOn(env: Record<string, string>, metrics: Metrics, clock: Clock = systemClock): Promise<{ store: StateStore; service: VerificationService }> {
  const config = loadConfig({ REDIS_URL: master.url, REDIS_KEY_PREFIX: 'rw:', LOG_LEVEL: 'silent', ...env });
  const store = createStateStore(config, { clock, logger: createLogger('silent'), metrics });
  await waitForMode(store, 'redis');
  const service = new VerificationService({
    hlr: { lookup: () => Promise.resolve({ status: 'active', paymentType: 'prepaid' }) },
    sim: { lookup: () => Promise.resolve({ lastSimSwapAtMs: null }) },
    store, clock, metrics,
    settings: {
      kycCacheTtlS: 300, kycStaleS: 3600, simSwapCacheTtlS: 30, negativeCacheTtlS: 60, simSwapMaxAgeHours: 240, txnTtlS: 86400, txnInFlightTtlS: 60,
      txnRecordBeforeAnswer: config.REDIS_WAIT_REPLICAS > 0,
    },
  });
  return { store, service };
}

/** Holds the replica still for ms: it reads nothing from its master meanwhile (DEBUG SLEEP blocks it). */
function holdReplica(ms: number): Promise<unknown> {
  // Its own connection: the sleeping replica answers nothing until it wakes.
  const c = new Redis(replica.url);
  return c.call('DEBUG', 'SLEEP', String(ms / 1000)).finally(() => c.disconnect());
}

describe('REDIS_WAIT_REPLICAS: txn_id records are on a replica before the answer', () => {
  it('when an answer is recorded, then it waits until the replica holds the record, and the replica has it the moment the answer arrives', async () => {
    const { metrics, waits } = countingMetrics();
    const { store, service } = await serviceOn({ REDIS_WAIT_REPLICAS: '1', REDIS_WAIT_TIMEOUT_MS: '2000', REDIS_COMMAND_TIMEOUT_MS: '5000' }, metrics);
    try {
      const held = holdReplica(400);
      await new Promise((r) => setTimeout(r, 20));
      const started = performance.now();
      const answer = await service.verify(partner, input('w-1'));
      const ms = performance.now() - started;
      const onReplica = await replicaClient.get('rw:{rw-key}:t:w-1');
      await held;
      expect(answer.replayed).toBe(false);
      // Without WAIT the answer comes in a few ms; with it, only once the replica woke and acknowledged.
      expect(ms).toBeGreaterThan(300);
      expect(onReplica?.startsWith('d')).toBe(true);
      // One WAIT, after the record (it covers the claim, written before on the same connection).
      expect(waits).toEqual({ acked: 1, short: 0, skipped: 0 });
      expect((await service.verify(partner, input('w-1'))).replayed).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('when the replica is too slow for REDIS_WAIT_TIMEOUT_MS, then the request is answered, and that connection skips WAIT for a second, then waits again', async () => {
    const { metrics, waits } = countingMetrics();
    // The backoff runs on the store's clock: moved past it rather than slept through.
    const clock = new TestClock();
    const { store, service } = await serviceOn({ REDIS_WAIT_REPLICAS: '1', REDIS_WAIT_TIMEOUT_MS: '100', REDIS_COMMAND_TIMEOUT_MS: '1000' }, metrics, clock);
    try {
      const held = holdReplica(1500);
      await new Promise((r) => setTimeout(r, 20));
      const started = performance.now();
      const answer = await service.verify(partner, input('w-2'));
      const ms = performance.now() - started;
      expect(answer.replayed).toBe(false);
      // The record's WAIT gives up at its timeout (Redis ends it on its next tick: up to 100 ms late), and the answer goes out.
      expect(ms).toBeGreaterThanOrEqual(95);
      expect(ms).toBeLessThan(400);
      expect(waits).toEqual({ acked: 0, short: 1, skipped: 0 });
      // Still within the second: no WAIT, so no wait, though the replica still sleeps.
      const again = performance.now();
      await service.verify(partner, input('w-3'));
      expect(performance.now() - again).toBeLessThan(90);
      expect(waits).toEqual({ acked: 0, short: 1, skipped: 1 });
      await held;
      clock.freeze();
      clock.advance(SHORT_WAIT_BACKOFF_MS);
      await service.verify(partner, input('w-4'));
      expect(waits).toEqual({ acked: 1, short: 1, skipped: 1 });
      expect(store.mode()).toBe('redis');
    } finally {
      await store.close();
    }
  });

  it('when many partners ask at once while the replica is away, then one WAIT is sent per connection and the rest skip it; nothing times out and state stays on Redis', async () => {
    const { metrics, waits } = countingMetrics();
    // The defaults: 100 ms WAIT, 500 ms command timeout. One WAIT per partner, one after another
    // on the one connection, would outlast the command timeout and turn the store degraded.
    const { store, service } = await serviceOn({ REDIS_WAIT_REPLICAS: '1' }, metrics);
    try {
      const partners = Array.from({ length: 8 }, (_, i): Partner => ({ ...partner, name: `p${i}`, apiKey: `rw-key-${i}` }));
      const held = holdReplica(1500);
      await new Promise((r) => setTimeout(r, 20));
      const started = performance.now();
      const answers = await Promise.all(partners.flatMap((p) => [1, 2, 3].map((k) => service.verify(p, input(`many-${k}`)))));
      const ms = performance.now() - started;
      await held;
      expect(answers.every((a) => !a.replayed)).toBe(true);
      expect(ms).toBeLessThan(500);
      expect(waits.short).toBe(1);
      expect(waits.acked + waits.short + waits.skipped).toBe(24);
      expect(store.mode()).toBe('redis');
    } finally {
      await store.close();
    }
  });

  it('when REDIS_WAIT_REPLICAS=0 (the default), then no WAIT is sent and the answer does not wait for the replica', async () => {
    const { metrics, waits } = countingMetrics();
    const { store, service } = await serviceOn({}, metrics);
    try {
      const held = holdReplica(400);
      await new Promise((r) => setTimeout(r, 20));
      const started = performance.now();
      await service.verify(partner, input('w-5'));
      expect(performance.now() - started).toBeLessThan(300);
      await held;
      expect(waits).toEqual({ acked: 0, short: 0, skipped: 0 });
    } finally {
      await store.close();
    }
  });
});

/*
 * What a failover loses. The replica trails its master by LAG_MS (a link between zones); at an
 * instant the master is lost (the link cut, what was on the way dropped) and the replica is
 * promoted. Every txn_id answered before that instant must be on it: with WAIT all are; without,
 * those answered in the last LAG_MS are not (a retry would be answered a second time).
 */
const LAG_MS = 30;

async function acknowledgedLostAtFailover(env: Record<string, string>): Promise<{ acknowledged: number; lost: number; waits: Record<ReplicationWaitOutcome, number> }> {
  // A master of its own: its one replica is the lagging one.
  const lagMaster = await startRedis();
  const proxy = await startLaggingProxy(lagMaster.port, LAG_MS);
  const promoted = await startRedis(['--replicaof', '127.0.0.1', String(proxy.port)]);
  const promotedClient = new Redis(promoted.url);
  const { metrics, waits } = countingMetrics();
  const { store, service } = await serviceOn({ REDIS_URL: lagMaster.url, REDIS_COMMAND_TIMEOUT_MS: '2000', ...env }, metrics);
  try {
    await waitForLink(promotedClient);
    const acknowledged: Array<{ id: string; atMs: number }> = [];
    let writing = true;
    let seq = 0;
    const writers = Array.from({ length: 8 }, async () => {
      while (writing) {
        const id = `f-${seq++}`;
        const answer = await service.verify(partner, input(id)).catch(() => undefined);
        if (answer && !answer.replayed) acknowledged.push({ id, atMs: performance.now() });
      }
    });
    // Writes flowing on every writer before the master is lost (more than the 20 a test needs).
    await until(() => acknowledged.length >= 40, 'txn_ids acknowledged before the failover');
    const lostAt = performance.now();
    proxy.cut();
    await promotedClient.replicaof('NO', 'ONE');
    writing = false;
    await Promise.all(writers);
    const before = acknowledged.filter((a) => a.atMs < lostAt);
    const keys = before.map((a) => `rw:{rw-key}:t:${a.id}`);
    const values = await Promise.all(keys.map((k) => promotedClient.get(k)));
    return { acknowledged: before.length, lost: values.filter((v) => !v?.startsWith('d')).length, waits };
  } finally {
    await store.close();
    promotedClient.disconnect();
    await promoted.stop();
    await proxy.close();
    await lagMaster.stop();
  }
}

describe(`a failover with the replica ${LAG_MS} ms behind: acknowledged txn_ids lost`, () => {
  // Two failovers, one per setting: each is its own test, so a failure names the setting.
  it('when REDIS_WAIT_REPLICAS=1, then none is lost', async () => {
    const withWait = await acknowledgedLostAtFailover({ REDIS_WAIT_REPLICAS: '1', REDIS_WAIT_TIMEOUT_MS: '500' });
    console.log(`failover, replica ${LAG_MS} ms behind: with WAIT ${JSON.stringify(withWait)}`);
    expect(withWait.acknowledged).toBeGreaterThan(20);
    expect(withWait.lost).toBe(0);
    expect(withWait.waits.acked).toBeGreaterThan(0);
  });

  it('when REDIS_WAIT_REPLICAS is not set, then some are lost (what WAIT buys)', async () => {
    const without = await acknowledgedLostAtFailover({});
    console.log(`failover, replica ${LAG_MS} ms behind: without WAIT ${JSON.stringify(without)}`);
    // Without WAIT the answers of the last LAG_MS are on the old master only: this is what WAIT buys.
    expect(without.lost).toBeGreaterThan(0);
  });
});
