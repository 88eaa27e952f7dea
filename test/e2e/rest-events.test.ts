import { Harness, postJson, startHarness, txnId } from '../support/harness';

const TOKEN = 'events-token-for-tests-0123';
/** The fields these tests read from an answer (harness replies are untyped). */
interface Answer {
  code?: string;
  result?: { sim_swapped?: string };
}
const answer = (r: { body: unknown }) => r.body as Answer;
const event = (h: Harness, body: unknown, authorization?: string) =>
  postJson(`${h.url}/internal/events/sim-swap`, body, authorization ? { headers: { authorization } } : {});

describe('POST /internal/events/sim-swap (CONTRACT §5)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { EVENTS_TOKEN: TOKEN, SIM_SWAP_CACHE_TTL_S: '30' } });
  });
  afterAll(() => h.close());

  it('when the event arrives, then the cached answer is evicted at once and the next SIM swap query sees the new swap', async () => {
    const before = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712000002' });
    expect(answer(before).result).toEqual({ msisdn: '255712000002', sim_swapped: 'false' });
    h.sim.upsert({ msisdn: '255712000002', status: 'active', paymentType: 'postpaid', iccid: '8925500000000000099', lastSimSwapAt: new Date().toISOString() });
    const cached = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712000002' });
    expect(answer(cached).result?.sim_swapped).toBe('false');
    const ev = await event(h, { msisdn: '0712000002' }, `Bearer ${TOKEN}`);
    expect(ev.status).toBe(200);
    expect(ev.body).toEqual({ code: '00000', desc: 'Success' });
    const after = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712000002' });
    expect(answer(after).result?.sim_swapped).toBe('true');
  });

  // The scheme is case-insensitive (RFC 9110 §11.1); the token is not.
  it.each([`bearer ${TOKEN}`, `BEARER ${TOKEN}`, `Bearer  ${TOKEN}`])('when the authorization is %p, then it is accepted', async (authorization) => {
    const r = await event(h, { msisdn: '255712000003' }, authorization);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ code: '00000', desc: 'Success' });
  });

  it.each([undefined, 'Bearer wrong-token-0123456789', TOKEN, `bearer ${TOKEN}x`, `Bearer ${TOKEN.toUpperCase()}`, `Basic ${TOKEN}`, `Bearer${TOKEN}`])('when the authorization is %p, then 401 11111', async (authorization) => {
    const r = await event(h, { msisdn: '255712000002' }, authorization);
    expect(r.status).toBe(401);
    expect(answer(r).code).toBe('11111');
    expect(r.text).not.toContain(TOKEN);
  });

  it.each<[unknown]>([[{}], [{ msisdn: 'x' }], [[1]], ['{"msisdn":']])('refuses the body %p with 400 11111', async (body) => {
    const r = await event(h, body, `Bearer ${TOKEN}`);
    expect(r.status).toBe(400);
    expect(answer(r).code).toBe('11111');
  });
});

it('when EVENTS_TOKEN is unset, then POST /internal/events/sim-swap is 404', async () => {
  const h = await startHarness();
  try {
    const r = await event(h, { msisdn: '255712000002' }, 'Bearer anything-at-all-here');
    expect(r.status).toBe(404);
    expect(answer(r).code).toBe('11111');
  } finally {
    await h.close();
  }
});
