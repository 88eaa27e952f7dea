import { Harness, startHarness, txnId } from '../support/harness';
import { until } from '../support/until';

describe('REST txn_id rules (CONTRACT §1.4)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterEach(() => h.sim.resetFaults());
  afterAll(() => h.close());

  it('when the same txn_id, operation and msisdn come again, then the stored answer is replayed without calling the upstream', async () => {
    const id = txnId();
    const first = await h.post('sim_swap', { txn_id: id, msisdn: '255712000006' });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    h.sim.resetCalls();
    const again = await h.post('sim_swap', { txn_id: id, msisdn: '255712000006' });
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(h.sim.calls()).toEqual({ hlr: 0, sim: 0, crm: 0 });
  });

  it('when the upstream has gone down since, then the answer is still replayed', async () => {
    const id = txnId();
    const first = await h.post('kyc', { txn_id: id, msisdn: '255712000002' });
    h.sim.setFault('hlr', { down: true });
    const again = await h.post('kyc', { txn_id: id, msisdn: '255712000002' });
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
  });

  it('when the same txn_id comes with another operation, another msisdn or another form of the msisdn, then 409', async () => {
    const id = txnId();
    expect((await h.post('kyc', { txn_id: id, msisdn: '255712000001' })).status).toBe(200);
    const otherOp = await h.post('sim_swap', { txn_id: id, msisdn: '255712000001' });
    expect(otherOp.status).toBe(409);
    expect(otherOp.body.response?.code).toBe('11111');
    expect((await h.post('kyc', { txn_id: id, msisdn: '255712000002' })).status).toBe(409);
    expect((await h.post('kyc', { txn_id: id, msisdn: '0712000001' })).status).toBe(409);
  });

  it('when another partner uses the same txn_id, then it may: txn_ids are per partner', async () => {
    const { DEMO_HMAC, signedQuery } = await import('../support/signing');
    const id = txnId();
    expect((await h.post('kyc', { txn_id: id, msisdn: '255712000001' })).status).toBe(200);
    const other = await h.post('kyc', { txn_id: id, msisdn: '255712000002' }, { query: signedQuery(DEMO_HMAC, { hmac: true }) });
    expect(other.status).toBe(200);
  });

  it('when the first request is still in flight, then the same txn_id is refused with 409', async () => {
    h.sim.setFault('sim', { latencyMs: 150 });
    const id = txnId();
    const simCalls = h.sim.calls().sim;
    const first = h.post('sim_swap', { txn_id: id, msisdn: '255712000007' });
    // In flight: its lookup has reached the slow SIM management (the txn_id is claimed before).
    await until(() => h.sim.calls().sim > simCalls, 'the first lookup at SIM management');
    const second = await h.post('sim_swap', { txn_id: id, msisdn: '255712000007' });
    expect(second.status).toBe(409);
    expect(second.body.response?.desc).toMatch(/in flight/);
    expect((await first).status).toBe(200);
  });

  it('when the answer was 9999, then the txn_id is released so the partner can retry with it', async () => {
    const id = txnId();
    h.sim.setFault('hlr', { down: true });
    const failed = await h.post('kyc', { txn_id: id, msisdn: '255712000005' });
    expect(failed.status).toBe(503);
    expect(failed.body.code).toBe('9999');
    h.sim.resetFaults();
    const retried = await h.post('kyc', { txn_id: id, msisdn: '255712000005' });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('when the same SIM swap request comes again, then its "not a subscriber" answer is replayed', async () => {
    const id = txnId();
    const first = await h.post('sim_swap', { txn_id: id, msisdn: '255799000001' });
    expect(first.status).toBe(404);
    const again = await h.post('sim_swap', { txn_id: id, msisdn: '255799000001' });
    expect(again.status).toBe(404);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('when authentication or validation fails, then the txn_id is not recorded', async () => {
    const id = txnId();
    expect((await h.post('kyc', { txn_id: id, msisdn: 'bad' })).status).toBe(400);
    expect((await h.post('kyc', { txn_id: id, msisdn: '255712000001' }, { query: 'api_key=demo-key&sig=00' })).status).toBe(401);
    expect((await h.post('kyc', { txn_id: id, msisdn: '255712000001' })).status).toBe(200);
  });
});
