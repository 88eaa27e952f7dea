import { Harness, startHarness, txnId } from '../support/harness';

const HOUR = 3_600_000;

/** A recent whole-second instant and, computed independently, how it reads at a fixed offset. */
function recentSwap(offsetMinutes: number): { at: Date; expected: string } {
  const at = new Date(Math.floor((Date.now() - 26 * HOUR) / 1000) * 1000 + 123);
  const local = new Date(at.getTime() - 123 + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const abs = Math.abs(offsetMinutes);
  const sign = offsetMinutes < 0 ? '-' : '+';
  return { at, expected: `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}` };
}

describe('REST KYC facts (CONTRACT §1.1, §3)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it.each([
    ['255712000001', 'active prepaid', { is_prepaid: 'true', is_active: 'true', is_valid: 'true' }],
    ['255712000002', 'active postpaid', { is_prepaid: 'false', is_active: 'true', is_valid: 'true' }],
    ['255712000003', 'suspended prepaid', { is_prepaid: 'true', is_active: 'false', is_valid: 'true' }],
    ['255712000004', 'terminated', { is_prepaid: 'false', is_active: 'false', is_valid: 'false' }],
    ['255712000005', 'inactive prepaid', { is_prepaid: 'true', is_active: 'false', is_valid: 'true' }],
    ['255799999998', 'unknown to the HLR', { is_prepaid: 'false', is_active: 'false', is_valid: 'false' }],
  ])('%s (%s) answers its facts as strings', async (msisdn, _kind, facts) => {
    const r = await h.post('kyc', { txn_id: txnId(), msisdn });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ code: '00000', desc: 'Success', result: { msisdn, ...facts } });
  });

  it('when the msisdn is sent in any form, then it is echoed exactly as sent, and every form of one number shares one cache entry', async () => {
    h.sim.upsert({ msisdn: '255712000077', status: 'active', paymentType: 'prepaid', iccid: '8925500000000000077', lastSimSwapAt: null });
    h.sim.resetCalls();
    for (const form of ['255712000077', '+255712000077', '00255712000077', '0712000077', '712000077']) {
      const r = await h.post('kyc', { txn_id: txnId(), msisdn: form });
      expect(r.status).toBe(200);
      expect(r.body.result?.msisdn).toBe(form);
      expect(r.body.result?.is_valid).toBe('true');
    }
    expect(h.sim.calls().hlr).toBe(1);
  });

  it('when requests for the same number run at once, then they share one upstream call', async () => {
    h.sim.upsert({ msisdn: '255712000078', status: 'active', paymentType: 'postpaid', iccid: '8925500000000000078', lastSimSwapAt: null });
    h.sim.setFault('hlr', { latencyMs: 50 });
    h.sim.resetCalls();
    try {
      const replies = await Promise.all(Array.from({ length: 10 }, () => h.post('kyc', { txn_id: txnId(), msisdn: '0712000078' })));
      expect(replies.every((r) => r.status === 200)).toBe(true);
      expect(h.sim.calls().hlr).toBe(1);
    } finally {
      h.sim.resetFaults();
    }
  });
});

describe('REST SIM swap facts, look-back window and time zone (CONTRACT §1.1)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { TIMEZONE: 'Africa/Dar_es_Salaam', SIM_SWAP_CACHE_TTL_S: '0' } });
  });
  afterAll(() => h.close());

  const swapAt = (msisdn: string, at: Date | null) =>
    h.sim.upsert({ msisdn, status: 'active', paymentType: 'prepaid', iccid: `89255000000${msisdn.slice(-8)}`, lastSimSwapAt: at ? at.toISOString() : null });

  it('when sim_swapped_dt is rendered, then it is yyyy-MM-ddTHH:mm:ss+03:00 in the configured zone', async () => {
    const { at, expected } = recentSwap(180);
    swapAt('255712100001', at);
    const r = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712100001', max_age: 48 });
    expect(r.body).toEqual({ code: '00000', desc: 'Success', result: { msisdn: '255712100001', sim_swapped: 'true', sim_swapped_dt: expected } });
    expect(expected).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+03:00$/);
  });

  it('when the swap is older than the window, or the SIM was never swapped, then sim_swapped_dt is left out', async () => {
    swapAt('255712100002', new Date(Date.now() - 241 * HOUR));
    const old = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712100002' });
    expect(old.body.result).toEqual({ msisdn: '255712100002', sim_swapped: 'false' });
    const never = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712000001' });
    expect(never.body.result).toEqual({ msisdn: '255712000001', sim_swapped: 'false' });
  });

  it('when max_age is absent, then the default window of 240 hours is used', async () => {
    swapAt('255712100003', new Date(Date.now() - 239 * HOUR));
    const r = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712100003' });
    expect(r.body.result?.sim_swapped).toBe('true');
  });

  it('when max_age is at its boundaries, then a swap 2 h ago is inside 3 h and outside 1 h', async () => {
    swapAt('255712100004', new Date(Date.now() - 2 * HOUR));
    const inside = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712100004', max_age: 3 });
    expect(inside.body.result?.sim_swapped).toBe('true');
    const outside = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712100004', max_age: 1 });
    expect(outside.body.result).toEqual({ msisdn: '255712100004', sim_swapped: 'false' });
  });

  it.each([1, 2400])('when max_age is %i, then it is accepted', async (maxAge) => {
    const r = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712000006', max_age: maxAge });
    expect(r.status).toBe(200);
  });

  it.each<[unknown]>([[0], [2401], [-5], [1.5], ['24'], [true], [{}]])('refuses max_age %p with 400 in the SIM swap shape', async (maxAge) => {
    const r = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712000006', max_age: maxAge });
    expect(r.status).toBe(400);
    expect(r.body.response?.code).toBe('11111');
    expect(r.body.response?.desc).toMatch(/max_age/);
  });

  it('when the demo fixture has relative swaps, then they are treated as the README says', async () => {
    const hoursAgo = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712000006' });
    expect(hoursAgo.body.result?.sim_swapped).toBe('true');
    expect(hoursAgo.body.result?.sim_swapped_dt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+03:00$/);
    const monthsAgo = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712000007' });
    expect(monthsAgo.body.result?.sim_swapped).toBe('false');
  });
});

describe('sim_swapped_dt in zones with other offsets', () => {
  // Zones without daylight saving, so the expected offset holds all year.
  it.each([
    ['Asia/Kolkata', 330],
    ['Pacific/Marquesas', -570],
    ['UTC', 0],
  ])('%s renders the local time with its numeric offset', async (zone, offset) => {
    const h = await startHarness({ env: { TIMEZONE: zone } });
    const { at, expected } = recentSwap(offset);
    try {
      h.sim.upsert({ msisdn: '255712100009', status: 'active', paymentType: 'prepaid', iccid: '8925500000100000009', lastSimSwapAt: at.toISOString() });
      const r = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712100009', max_age: 48 });
      expect(r.body.result?.sim_swapped_dt).toBe(expected);
    } finally {
      await h.close();
    }
  });
});
