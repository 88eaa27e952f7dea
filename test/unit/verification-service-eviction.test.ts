import { MemoryStateStore } from '../../src/verification/state/memory-state-store';
import { noopMetrics } from '../../src/verification/ports/metrics';
import { StateStore } from '../../src/verification/ports/state-store';
import { HlrRecord, SimRecord } from '../../src/verification/ports/upstreams';
import { VerificationService } from '../../src/verification/verification-service';

/**
 * An upstream whose every lookup reads the system's record when it is called, like a real
 * one, and answers only when the test releases it: a lookup in flight across a SIM swap.
 */
function heldUpstream<T>(initial: T | null) {
  const pending: { answer: T | null; release: () => void }[] = [];
  const u = {
    record: initial,
    get calls() { return pending.length; },
    lookup(): Promise<T | null> {
      const answer = u.record;
      return new Promise((resolve) => pending.push({ answer, release: () => resolve(answer) }));
    },
    /** Lets lookup number i (0-based) answer with what it read, and lets the service act on it. */
    async release(i: number): Promise<void> {
      pending[i].release();
      await settle();
    },
  };
  return u;
}

/** Lets every promise chain that can move, move (store calls and cache writes included). */
const settle = () => new Promise((r) => setImmediate(r));

const MSISDN = '255712000002';
const NOW = 1_800_000_000_000;
const SETTINGS = { kycCacheTtlS: 300, kycStaleS: 3600, simSwapCacheTtlS: 30, negativeCacheTtlS: 60, simSwapMaxAgeHours: 240, txnTtlS: 86400, txnInFlightTtlS: 60 };

function instance(store: StateStore, sim = heldUpstream<SimRecord>({ lastSimSwapAtMs: null }), hlr = heldUpstream<HlrRecord>({ status: 'active', paymentType: 'postpaid' })) {
  const clock = { nowMs: () => NOW };
  const service = new VerificationService({ hlr, sim, store, clock, metrics: noopMetrics, settings: SETTINGS });
  return { service, sim, hlr };
}

const memoryStore = () => new MemoryStateStore({ clock: { nowMs: () => NOW }, maxCacheEntries: 1000, maxTxnEntries: 1000 });

describe('a SIM swap event while a lookup of the number is in flight (the lookup must not re-cache pre-swap facts)', () => {
  it('when a SIM swap query comes after the event, then it does not join the earlier lookup but asks SIM management again and sees the swap', async () => {
    const { service, sim } = instance(memoryStore());
    const before = service.simSwap(MSISDN, MSISDN);
    await settle();
    expect(sim.calls).toBe(1);

    sim.record = { lastSimSwapAtMs: NOW - 60_000 };
    await service.evict(MSISDN);
    const after = service.simSwap(MSISDN, MSISDN);
    await settle();
    expect(sim.calls).toBe(2);

    await sim.release(0);
    await sim.release(1);
    expect(await before).toEqual({ msisdn: MSISDN, simSwapped: false, latestSimChangeMs: null });
    expect(await after).toEqual({ msisdn: MSISDN, simSwapped: true, simSwappedAtMs: NOW - 60_000, latestSimChangeMs: NOW - 60_000 });
  });

  it('when lookups finish in either order, then the earlier lookup does not write its pre-swap answer into the cache', async () => {
    for (const order of [[0, 1], [1, 0]]) {
      const { service, sim } = instance(memoryStore());
      const before = service.simSwap(MSISDN, MSISDN);
      await settle();
      sim.record = { lastSimSwapAtMs: NOW - 60_000 };
      await service.evict(MSISDN);
      const after = service.simSwap(MSISDN, MSISDN);
      await settle();
      for (const i of order) await sim.release(i);
      await Promise.all([before, after]);

      // From the cache now: no third lookup, and the post-swap answer.
      expect(await service.simSwap(MSISDN, MSISDN)).toMatchObject({ simSwapped: true });
      expect(sim.calls).toBe(2);
    }
  });

  it('when no request comes in between, then the earlier lookup still leaves nothing cached and the next query asks again', async () => {
    const { service, sim } = instance(memoryStore());
    const before = service.simSwap(MSISDN, MSISDN);
    await settle();
    sim.record = { lastSimSwapAtMs: NOW - 60_000 };
    await service.evict(MSISDN);
    await sim.release(0);
    expect(await before).toMatchObject({ simSwapped: false });

    const next = service.simSwap(MSISDN, MSISDN);
    await settle();
    expect(sim.calls).toBe(2);
    await sim.release(1);
    expect(await next).toMatchObject({ simSwapped: true });
  });

  it('when requests arrive before the event, then they still share one lookup', async () => {
    const { service, sim } = instance(memoryStore());
    const answers = [service.simSwap(MSISDN, MSISDN), service.simSwap(MSISDN, MSISDN), service.simSwap(MSISDN, MSISDN)];
    await settle();
    expect(sim.calls).toBe(1);
    await sim.release(0);
    expect(await Promise.all(answers)).toEqual(Array(3).fill({ msisdn: MSISDN, simSwapped: false, latestSimChangeMs: null }));
  });

  it('when the query is KYC, then likewise the earlier HLR lookup is not joined and no pre-swap answer is written back', async () => {
    const { service, hlr } = instance(memoryStore());
    const before = service.kyc(MSISDN, MSISDN);
    await settle();
    hlr.record = { status: 'suspended', paymentType: 'prepaid' };
    await service.evict(MSISDN);
    const after = service.kyc(MSISDN, MSISDN);
    await settle();
    expect(hlr.calls).toBe(2);
    await hlr.release(1);
    await hlr.release(0);
    expect(await before).toMatchObject({ isActive: true, isPrepaid: false });
    expect(await after).toMatchObject({ isActive: false, isPrepaid: true });
    expect(await service.kyc(MSISDN, MSISDN)).toMatchObject({ isActive: false, isPrepaid: true });
    expect(hlr.calls).toBe(2);
  });

  it('when instances share one cache, then the event on A keeps B from joining or writing back its earlier lookup', async () => {
    const shared = memoryStore();
    const sim = heldUpstream<SimRecord>({ lastSimSwapAtMs: null });
    const a = instance(shared, sim);
    const b = instance(shared, sim);
    const onB = b.service.simSwap(MSISDN, MSISDN);
    await settle();

    sim.record = { lastSimSwapAtMs: NOW - 60_000 };
    await a.service.evict(MSISDN);
    // B never saw the event: only the shared cache tells it the number changed.
    const laterOnB = b.service.simSwap(MSISDN, MSISDN);
    await settle();
    expect(sim.calls).toBe(2);
    await sim.release(1);
    await sim.release(0);
    expect(await onB).toMatchObject({ simSwapped: false });
    expect(await laterOnB).toMatchObject({ simSwapped: true });
    expect(await a.service.simSwap(MSISDN, MSISDN)).toMatchObject({ simSwapped: true });
    expect(await b.service.simSwap(MSISDN, MSISDN)).toMatchObject({ simSwapped: true });
    expect(sim.calls).toBe(2);
  });
});
