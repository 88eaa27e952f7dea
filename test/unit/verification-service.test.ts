import { MemoryStateStore } from '../../src/verification/state/memory-state-store';
import { NotSubscriberError, UpstreamUnavailableError } from '../../src/errors/domain-errors';
import { noopMetrics } from '../../src/verification/ports/metrics';
import { HlrRecord, SimRecord } from '../../src/verification/ports/upstreams';
import { VerificationService } from '../../src/verification/verification-service';

/** Upstream fakes: answers from a table, or fail when told to. */
function fakeUpstream<T>(table: Record<string, T>) {
  const u = {
    calls: 0, down: false, delayMs: 0,
    async lookup(msisdn: string): Promise<T | null> {
      u.calls += 1;
      if (u.delayMs) await new Promise((r) => setTimeout(r, u.delayMs));
      if (u.down) throw new UpstreamUnavailableError('down');
      return table[msisdn] ?? null;
    },
  };
  return u;
}

function setup() {
  const clock = { t: 1_800_000_000_000, nowMs() { return this.t; } };
  const hlr = fakeUpstream<HlrRecord>({ '255712000001': { status: 'active', paymentType: 'prepaid' } });
  const sim = fakeUpstream<SimRecord>({ '255712000001': { lastSimSwapAtMs: clock.t - 3_600_000 } });
  const store = new MemoryStateStore({ clock, maxCacheEntries: 1000, maxTxnEntries: 1000 });
  const service = new VerificationService({
    hlr, sim, store, clock, metrics: noopMetrics,
    settings: { kycCacheTtlS: 300, kycStaleS: 3600, simSwapCacheTtlS: 30, negativeCacheTtlS: 60, simSwapMaxAgeHours: 240, txnTtlS: 86400, txnInFlightTtlS: 60 },
  });
  return { clock, hlr, sim, service };
}

describe('VerificationService caching (CONTRACT §5)', () => {
  it('when KYC was answered less than KYC_CACHE_TTL_S ago, then it is served from cache, and after that the HLR is asked again', async () => {
    const { clock, hlr, service } = setup();
    await service.kyc('0712000001', '255712000001');
    clock.t += 300_000;
    await service.kyc('0712000001', '255712000001');
    expect(hlr.calls).toBe(1);
    clock.t += 1;
    await service.kyc('0712000001', '255712000001');
    expect(hlr.calls).toBe(2);
  });

  it('when the HLR is unavailable, then a stale KYC answer is served up to KYC_STALE_S, and after that 9999', async () => {
    const { clock, hlr, service } = setup();
    await service.kyc('x', '255712000001');
    hlr.down = true;
    clock.t += 3_600_000;
    expect((await service.kyc('x', '255712000001')).isValid).toBe(true);
    clock.t += 1;
    await expect(service.kyc('x', '255712000001')).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });

  it('when a number is not a subscriber, then that is cached for NEGATIVE_CACHE_TTL_S only', async () => {
    const { clock, hlr, sim, service } = setup();
    await service.kyc('x', '255700000000');
    await expect(service.simSwap('x', '255700000000')).rejects.toBeInstanceOf(NotSubscriberError);
    clock.t += 60_000;
    await service.kyc('x', '255700000000');
    await expect(service.simSwap('x', '255700000000')).rejects.toBeInstanceOf(NotSubscriberError);
    expect([hlr.calls, sim.calls]).toEqual([1, 1]);
    clock.t += 1;
    await service.kyc('x', '255700000000');
    expect(hlr.calls).toBe(2);
  });

  it('when a SIM swap answer is older than SIM_SWAP_CACHE_TTL_S, then it is never served, even when SIM management is down', async () => {
    const { clock, sim, service } = setup();
    expect((await service.simSwap('x', '255712000001')).simSwapped).toBe(true);
    sim.down = true;
    clock.t += 30_000;
    expect((await service.simSwap('x', '255712000001')).simSwapped).toBe(true);
    clock.t += 1;
    await expect(service.simSwap('x', '255712000001')).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });

  it('when an upstream fails, then the failure is never cached', async () => {
    const { hlr, service } = setup();
    hlr.down = true;
    await expect(service.kyc('x', '255712000001')).rejects.toBeInstanceOf(UpstreamUnavailableError);
    hlr.down = false;
    expect((await service.kyc('x', '255712000001')).isActive).toBe(true);
    expect(hlr.calls).toBe(2);
  });

  it('when lookups of one number run at once, then they share one upstream call', async () => {
    const { hlr, service } = setup();
    hlr.delayMs = 20;
    jest.useFakeTimers();
    const all = Promise.all(Array.from({ length: 20 }, () => service.kyc('x', '255712000001')));
    await jest.advanceTimersByTimeAsync(20).finally(() => jest.useRealTimers());
    await all;
    expect(hlr.calls).toBe(1);
  });

  it('when a swap event arrives, then the number is forgotten at once', async () => {
    const { sim, service } = setup();
    await service.simSwap('x', '255712000001');
    await service.evict('255712000001');
    await service.simSwap('x', '255712000001');
    expect(sim.calls).toBe(2);
  });

  it('when the window is computed, then it starts from the swap instant, and a first activation (null) is no swap', async () => {
    const { service, clock } = setup();
    const r = await service.simSwap('raw', '255712000001', 1);
    const swappedAt = clock.t - 3_600_000;
    expect(r).toEqual({ msisdn: 'raw', simSwapped: true, simSwappedAtMs: swappedAt, latestSimChangeMs: swappedAt });
    clock.t += 1;
    // still cached (30 s), but now 1 ms outside a 1-hour window; the swap is still the latest SIM change
    expect(await service.simSwap('raw', '255712000001', 1)).toEqual({ msisdn: 'raw', simSwapped: false, latestSimChangeMs: swappedAt });
  });
});

describe('VerificationService: the HLR facts the signal APIs read (CONTRACT §11)', () => {
  const complete: HlrRecord = {
    status: 'active', paymentType: 'prepaid', activatedAtMs: 1, deviceFirstSeenAtMs: 2, deviceChangedAtMs: null, callForwarding: ['unconditional'],
  };

  it('when the cached entry predates the device fields, then hlrFactsComplete asks the HLR once more, and the cache serves after that', async () => {
    const clock = { t: 1_800_000_000_000, nowMs() { return this.t; } };
    const hlr = fakeUpstream<HlrRecord>({ '255712000001': complete });
    const store = new MemoryStateStore({ clock, maxCacheEntries: 1000, maxTxnEntries: 1000 });
    // An entry a server wrote before the device and forwarding fields existed (status/payment/tenure).
    await store.cache.set('kyc:255712000001', { value: 'active/prepaid/1', storedAtMs: clock.t }, 300, null);
    const service = new VerificationService({
      hlr, sim: fakeUpstream<SimRecord>({}), store, clock, metrics: noopMetrics,
      settings: { kycCacheTtlS: 300, kycStaleS: 3600, simSwapCacheTtlS: 30, negativeCacheTtlS: 60, simSwapMaxAgeHours: 240, txnTtlS: 86400, txnInFlightTtlS: 60 },
    });
    // Tenure is satisfied by the old entry: no call.
    await service.hlrFactsWithTenure('255712000001');
    expect(hlr.calls).toBe(0);
    expect(await service.hlrFactsComplete('255712000001')).toEqual(complete);
    expect(hlr.calls).toBe(1);
    expect(await service.hlrFactsComplete('255712000001')).toEqual(complete);
    expect(hlr.calls).toBe(1);
  });
});

describe('VerificationService txn_id handling when the store fails', () => {
  it('when storing a finished answer fails, then the answer is still given and the store error reported', async () => {
    const clock = { nowMs: () => 1_800_000_000_000 };
    const store = new MemoryStateStore({ clock, maxCacheEntries: 10, maxTxnEntries: 10 });
    store.txns.complete = async () => { throw new Error('store gone'); };
    const errors: unknown[] = [];
    const service = new VerificationService({
      hlr: fakeUpstream<HlrRecord>({ '255712000001': { status: 'active', paymentType: 'prepaid' } }),
      sim: fakeUpstream<SimRecord>({}), store, clock, metrics: noopMetrics, onStoreError: (e) => errors.push(e),
      settings: { kycCacheTtlS: 300, kycStaleS: 3600, simSwapCacheTtlS: 30, negativeCacheTtlS: 60, simSwapMaxAgeHours: 240, txnTtlS: 86400, txnInFlightTtlS: 60 },
    });
    const partner = { name: 'p', apiKey: 'k', secret: 's', operations: new Set(['kyc'] as const), enabled: true, signature: 'md5' as const };
    const answer = await service.verify(partner, { operation: 'kyc', msisdnRaw: 'x', msisdn: '255712000001', txnId: 'abc' });
    expect(answer.result).toEqual({ operation: 'kyc', kyc: { msisdn: 'x', isValid: true, isActive: true, isPrepaid: true, tenureSinceMs: null, paymentType: 'prepaid' } });
    expect(errors).toEqual([new Error('store gone')]);
  });
});
