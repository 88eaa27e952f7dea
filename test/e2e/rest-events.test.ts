import { Harness, postJson, startHarness, txnId } from '../support/harness';

const TOKEN = 'events-token-for-tests-0123';
const event = (h: Harness, body: unknown, authorization?: string) =>
  postJson(`${h.url}/internal/events/sim-swap`, body, authorization ? { headers: { authorization } } : {});

describe('POST /internal/events/sim-swap (CONTRACT §5)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { EVENTS_TOKEN: TOKEN, SIM_SWAP_CACHE_TTL_S: '30' } });
  });
  afterAll(() => h.close());

  it('evicts the cached answer at once, so the next SIM swap query sees the new swap', async () => {
    const before = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712000002' });
    expect(before.body.result).toEqual({ msisdn: '255712000002', sim_swapped: 'false' });
    h.sim.upsert({ msisdn: '255712000002', status: 'active', paymentType: 'postpaid', iccid: '8925500000000000099', lastSimSwapAt: new Date().toISOString() });
    const cached = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712000002' });
    expect(cached.body.result?.sim_swapped).toBe('false');
    const ev = await event(h, { msisdn: '0712000002' }, `Bearer ${TOKEN}`);
    expect(ev.status).toBe(200);
    expect(ev.body).toEqual({ code: '00000', desc: 'Success' });
    const after = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712000002' });
    expect(after.body.result?.sim_swapped).toBe('true');
  });

  it.each([undefined, 'Bearer wrong-token-0123456789', TOKEN, `bearer ${TOKEN}x`])('refuses the authorization %p with 401 11111', async (authorization) => {
    const r = await event(h, { msisdn: '255712000002' }, authorization);
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('11111');
    expect(r.text).not.toContain(TOKEN);
  });

  it.each<[unknown]>([[{}], [{ msisdn: 'x' }], [[1]], ['{"msisdn":']])('refuses the body %p with 400 11111', async (body) => {
    const r = await event(h, body, `Bearer ${TOKEN}`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('11111');
  });
});

it('POST /internal/events/sim-swap is 404 when EVENTS_TOKEN is unset', async () => {
  const h = await startHarness();
  try {
    const r = await event(h, { msisdn: '255712000002' }, 'Bearer anything-at-all-here');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('11111');
  } finally {
    await h.close();
  }
});
