import { Harness, startHarness, txnId } from '../support/harness';
import { stringMatching } from '../support/matchers';
import { until } from '../support/until';
import { TestClock } from '../contract/state-store.contract';

describe('REST under upstream faults (CONTRACT §1.3, §5)', () => {
  let h: Harness;
  const TIMEOUT_MS = 200;

  beforeEach(async () => {
    h = await startHarness({
      env: {
        HLR_TIMEOUT_MS: String(TIMEOUT_MS), SIM_TIMEOUT_MS: String(TIMEOUT_MS),
        BREAKER_VOLUME_THRESHOLD: '4', BREAKER_ERROR_THRESHOLD_PERCENT: '50', BREAKER_RESET_TIMEOUT_MS: '400',
        KYC_CACHE_TTL_S: '0', KYC_STALE_S: '3600', SIM_SWAP_CACHE_TTL_S: '30',
      },
    });
  });
  afterEach(() => h.close());

  it('when the HLR is slower than its timeout, then KYC answers 9999 within the timeout plus a small margin', async () => {
    // Warm the connections first, so the measured call is the deadline and nothing else.
    expect((await h.post('kyc', { txn_id: txnId(), msisdn: '255712000002' })).status).toBe(200);
    h.sim.setFault('hlr', { latencyMs: 5000 });
    const started = Date.now();
    const r = await h.post('kyc', { txn_id: txnId(), msisdn: '255712000001' });
    const elapsed = Date.now() - started;
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ code: '9999', desc: stringMatching(/^Unexpected system Error: hlr timed out/) });
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    // The upstream would take 5 s; the margin allows for a loaded 2-core CI machine.
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 400);
  });

  it('when the HLR fails past the threshold, then the breaker opens, answers 9999 without calling it, and closes again', async () => {
    h.sim.setFault('hlr', { errorRate: 1 });
    for (let i = 0; i < 4; i++) {
      expect((await h.post('kyc', { txn_id: txnId(), msisdn: '255712000002' })).status).toBe(503);
    }
    const callsWhenOpened = h.sim.calls().hlr;
    expect(callsWhenOpened).toBe(4);
    const readyOpen = (await (await fetch(`${h.url}/readyz`)).json()) as { upstreams: Record<string, string> };
    expect(readyOpen.upstreams.hlr).toBe('open');

    const shortCircuited = await h.post('kyc', { txn_id: txnId(), msisdn: '255712000002' });
    expect(shortCircuited.status).toBe(503);
    expect(shortCircuited.body.desc).toMatch(/circuit open/);
    expect(Number(shortCircuited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(h.sim.calls().hlr).toBe(callsWhenOpened);

    h.sim.resetFaults();
    // BREAKER_RESET_TIMEOUT_MS after opening, the breaker lets one trial call through.
    await until(async () => ((await (await fetch(`${h.url}/readyz`)).json()) as { upstreams: Record<string, string> }).upstreams.hlr === 'half_open', 'hlr breaker half open', 5000);
    const recovered = await h.post('kyc', { txn_id: txnId(), msisdn: '255712000002' });
    expect(recovered.status).toBe(200);
    expect(h.sim.calls().hlr).toBe(callsWhenOpened + 1);
    const readyClosed = (await (await fetch(`${h.url}/readyz`)).json()) as { upstreams: Record<string, string> };
    expect(readyClosed.upstreams.hlr).toBe('closed');
  });

  it('when the answer is "not a subscriber", then it does not count against the breaker', async () => {
    for (let i = 0; i < 8; i++) {
      expect((await h.post('sim_swap', { txn_id: txnId(), msisdn: `25579900000${i}` })).status).toBe(404);
    }
    expect(h.sim.calls().sim).toBe(8);
    expect((await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712000001' })).status).toBe(200);
  });

  it('when the HLR is down, then KYC answers from a stale entry instead of 9999', async () => {
    const fresh = await h.post('kyc', { txn_id: txnId(), msisdn: '0712000003' });
    expect(fresh.status).toBe(200);
    h.sim.setFault('hlr', { down: true });
    const stale = await h.post('kyc', { txn_id: txnId(), msisdn: '255712000003' });
    expect(stale.status).toBe(200);
    expect(stale.body.result).toEqual({ msisdn: '255712000003', is_prepaid: 'true', is_active: 'false', is_valid: 'true' });
  });

  it('when a SIM swap answer is fresh, then it is served from cache; when it expires, then 9999, never stale', async () => {
    // The service judges an entry's age by its clock: moved past the TTL rather than slept through.
    const clock = new TestClock();
    const h2 = await startHarness({ env: { SIM_SWAP_CACHE_TTL_S: '1', SIM_TIMEOUT_MS: '200' }, serverOptions: { clock } });
    try {
      expect((await h2.post('sim_swap', { txn_id: txnId(), msisdn: '255712000006' })).status).toBe(200);
      h2.sim.setFault('sim', { down: true });
      expect((await h2.post('sim_swap', { txn_id: txnId(), msisdn: '255712000006' })).status).toBe(200);
      clock.freeze();
      clock.advance(1001);
      const expired = await h2.post('sim_swap', { txn_id: txnId(), msisdn: '255712000006' });
      expect(expired.status).toBe(503);
      expect(expired.body.response?.code).toBe('9999');
    } finally {
      await h2.close();
    }
  });

  it('when only SIM management is down, then KYC is unaffected', async () => {
    h.sim.setFault('sim', { down: true });
    expect((await h.post('kyc', { txn_id: txnId(), msisdn: '255712000001' })).status).toBe(200);
    expect((await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712000001' })).status).toBe(503);
  });
});
