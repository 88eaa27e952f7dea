import { FallbackStateStore } from '../../src/verification/state/fallback-state-store';
import { MemoryStateStore } from '../../src/verification/state/memory-state-store';
import { RECORD_OVERHEAD_BYTES } from '../../src/verification/state/memory-txn-store';
import { JOURNAL_KEY_BYTES } from '../../src/verification/state/redis-outage-journal';
import { RedisStateStore } from '../../src/verification/state/redis-state-store';
import { systemClock } from '../../src/kernel/clock';
import { Metrics, noopMetrics, StateStoreFailure } from '../../src/verification/ports/metrics';
import { createLogger } from '../../src/observability/logger';
import { waitForMode } from '../contract/state-store.contract';
import { Harness, startHarness, txnId } from '../support/harness';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';

/*
 * Degraded mode's memory bound over HTTP, with a real Redis killed and restarted: past the
 * bound a new txn_id is refused (9999/503), never stored by forgetting an answered one.
 */
describe('degraded mode with its txn_id memory full', () => {
  let redis: RedisProcess;
  let h: Harness;
  let failures: StateStoreFailure[];

  async function start(bound: { maxTxnEntries: number; maxDegradedTxnBytes: number }): Promise<FallbackStateStore> {
    redis = await startRedis();
    failures = [];
    const metrics: Metrics = { ...noopMetrics, stateStoreFailure: (kind) => { failures.push(kind); } };
    const shared = new RedisStateStore({ url: redis.url, commandTimeoutMs: 300, keyPrefix: 'budget:', clock: systemClock });
    const memory = new MemoryStateStore({ clock: systemClock, maxCacheEntries: 100, maxTxnEntries: bound.maxTxnEntries });
    const store = new FallbackStateStore(shared, memory, {
      clock: systemClock, logger: createLogger('silent'), metrics, commandTimeoutMs: 300, healthTimeoutMs: 300, probeIntervalMs: 200,
      maxJournalEntries: 100, maxDegradedTxnBytes: bound.maxDegradedTxnBytes,
    });
    await waitForMode(store, 'redis');
    h = await startHarness({ serverOptions: { store } });
    await redis.stop();
    await waitForMode(store, 'degraded');
    return store;
  }

  afterEach(async () => {
    await h?.close();
    await redis?.stop();
  });

  const kyc = (txn: string, msisdn: string) => h.post('kyc', { txn_id: txn, msisdn });
  const NUMBERS = ['255712000001', '255712000002', '255712000003', '255712000005'];

  /** Sends new txn_ids until one is refused; returns the ones answered, with their answers. */
  async function fill(max: number): Promise<{ answered: { txn: string; msisdn: string; body: unknown }[]; refused: Awaited<ReturnType<typeof kyc>> }> {
    const answered: { txn: string; msisdn: string; body: unknown }[] = [];
    for (let i = 0; i < max; i++) {
      const txn = txnId();
      const msisdn = NUMBERS[i % NUMBERS.length];
      const r = await kyc(txn, msisdn);
      if (r.status !== 200) return { answered, refused: r };
      answered.push({ txn, msisdn, body: r.body });
    }
    throw new Error(`no txn_id refused after ${max}`);
  }

  it.each([
    ['the entry cap (MEMORY_TXN_MAX_ENTRIES)', { maxTxnEntries: 5, maxDegradedTxnBytes: 1e9 }, 5, 5],
    ['the byte budget', { maxTxnEntries: 1_000_000, maxDegradedTxnBytes: 8 * (RECORD_OVERHEAD_BYTES + JOURNAL_KEY_BYTES) }, 3, 8],
  ])('when %s is reached, then a new txn_id gets 503 9999, every answered txn_id still replays or conflicts, and all reach Redis once it is back',
    async (_, bound, atLeast, atMost) => {
      const store = await start(bound);
      const { answered, refused } = await fill(50);
      expect(answered.length).toBeGreaterThanOrEqual(atLeast);
      expect(answered.length).toBeLessThanOrEqual(atMost);
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ code: '9999', desc: 'Unexpected system Error: state store unavailable; retry later' });
      expect(failures).toContain('degraded_full');

      // Nothing answered was forgotten: the same request replays, another request conflicts.
      const hlrCalls = h.sim.calls().hlr;
      for (const a of answered) {
        const replay = await kyc(a.txn, a.msisdn);
        expect({ txn: a.txn, status: replay.status, body: replay.body }).toEqual({ txn: a.txn, status: 200, body: a.body });
        expect((await kyc(a.txn, '255712000004')).status).toBe(409);
      }
      expect(h.sim.calls().hlr).toBe(hlrCalls);

      // Redis back: the journal reaches it, and new txn_ids are served again.
      await redis.restart();
      await waitForMode(store, 'redis');
      expect((await kyc(txnId(), '255712000001')).status).toBe(200);
      for (const a of answered) expect((await kyc(a.txn, '255712000004')).status).toBe(409);
    });
});
