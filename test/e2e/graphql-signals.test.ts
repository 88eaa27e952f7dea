import { GqlReply, QueryData, dataOf, firstError, gql as gqlRequest } from '../support/graphql-client';
import { Harness, startHarness } from '../support/harness';
import { DEMO, DEMO_KYC_ONLY, signedQuery } from '../support/signing';

/*
 * The signals query (CONTRACT §11, GraphQL): every fraud and identity signal of up to 100
 * numbers, each upstream asked at most once per number (counted by the simulator), and a
 * failed signal that leaves the number's other signals answered.
 */

function gql(h: Harness, query: string, variables?: object, qs = signedQuery(DEMO)): Promise<GqlReply<QueryData>> {
  return gqlRequest(h, query, variables, { qs });
}

const ALL = `query($m: [String!]!) {
  signals(msisdns: $m) {
    msisdn
    simSwap { latestSimChangeAt }
    deviceSwap { latestDeviceChangeAt }
    callForwarding { active unconditional }
    tenure { since contractType }
    kyc { isValid isActive isPrepaid }
    errors { signal code desc }
  }
}`;

// No caching at all: one call per number per upstream is the per-request loaders' doing.
const NO_CACHE = { KYC_CACHE_TTL_S: '0', KYC_STALE_S: '0', SIM_SWAP_CACHE_TTL_S: '0', NEGATIVE_CACHE_TTL_S: '0', TIMEZONE: 'Africa/Dar_es_Salaam' };

describe('GraphQL signals', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ env: NO_CACHE }); });
  afterAll(() => h.close());
  beforeEach(() => {
    h.sim.resetCalls();
    h.sim.resetFaults();
  });

  it('when 100 numbers are asked every signal, then the HLR and SIM management are each called exactly once per number', async () => {
    const numbers = Array.from({ length: 100 }, (_, i) => `2557126${String(i).padStart(5, '0')}`);
    for (const [i, msisdn] of numbers.entries()) {
      h.sim.upsert({
        msisdn, status: 'active', paymentType: i % 2 ? 'prepaid' : 'postpaid', iccid: `89255000000${msisdn.slice(-8)}`, lastSimSwapAt: null,
        activatedAt: 'now-300d', deviceFirstSeenAt: 'now-299d', deviceChangedAt: null, callForwarding: i % 3 ? [] : ['unconditional'],
      });
    }
    const r = await gql(h, ALL, { m: numbers });
    expect([r.status, r.body.errors]).toEqual([200, undefined]);
    const items = dataOf(r).signals;
    expect(items.map((i) => [i.msisdn, i.errors])).toEqual(numbers.map((m) => [m, []]));
    expect(items[0]).toMatchObject({
      callForwarding: { active: ['UNCONDITIONAL'], unconditional: true }, tenure: { contractType: 'PAYM' },
      kyc: { isValid: true, isActive: true, isPrepaid: false },
    });
    expect(items[1].callForwarding).toEqual({ active: [], unconditional: false });
    expect(items[1].deviceSwap?.latestDeviceChangeAt).toMatch(/\+03:00$/);
    expect(h.sim.calls()).toEqual({ hlr: 100, sim: 100, crm: 0 });
  });

  it('when a number is sent in several spellings and a signal is asked twice, then each upstream is still called once for it', async () => {
    const r = await gql(h, `query($m: [String!]!) {
      signals(msisdns: $m) { msisdn kyc { isValid } tenure { contractType } }
      again: signals(msisdns: $m) { deviceSwap { latestDeviceChangeAt } simSwap { latestSimChangeAt } }
    }`, { m: ['255712000011', '0712000011', '+255712000011'] });
    expect(r.body.errors).toBeUndefined();
    expect(h.sim.calls()).toEqual({ hlr: 1, sim: 1, crm: 0 });
  });

  it('when only the HLR signals are selected, then SIM management is not called; SIM swap alone asks both (only a subscriber has a SIM change)', async () => {
    await gql(h, '{ signals(msisdns: ["255712000012"]) { callForwarding { unconditional } } }');
    expect(h.sim.calls()).toEqual({ hlr: 1, sim: 0, crm: 0 });
    h.sim.resetCalls();
    await gql(h, '{ signals(msisdns: ["255712000012"]) { simSwap { latestSimChangeAt } } }');
    expect(h.sim.calls()).toEqual({ hlr: 1, sim: 1, crm: 0 });
  });

  it('answers the demo numbers\' facts: device dates, forwarding, tenure, KYC', async () => {
    const r = await gql(h, ALL, { m: ['255712000011', '255712000013', '255712000014'] });
    const [recent, conditional, never] = dataOf(r).signals;
    expect(Date.now() - Date.parse(recent.deviceSwap!.latestDeviceChangeAt!)).toBeLessThan(3 * 3_600_000);
    expect(recent.callForwarding).toEqual({ active: [], unconditional: false });
    expect(conditional.callForwarding).toEqual({ active: ['CONDITIONAL_BUSY', 'CONDITIONAL_NO_ANSWER'], unconditional: false });
    expect(conditional.tenure?.contractType).toBe('PAYM');
    expect(never.deviceSwap).toEqual({ latestDeviceChangeAt: null });
    for (const item of [recent, conditional, never]) expect(item.errors).toEqual([]);
  });

  it('when one signal cannot be answered, then it is null with its error and the number\'s other signals are answered', async () => {
    // Demo 001: the HLR reports no forwarding facts for it.
    const [unknownForwarding] = dataOf(await gql(h, ALL, { m: ['255712000001'] })).signals;
    expect(unknownForwarding.callForwarding).toBeNull();
    expect(unknownForwarding.errors).toEqual([{ signal: 'CALL_FORWARDING', code: '11111', desc: expect.stringContaining('could not be retrieved') as unknown }]);
    expect(unknownForwarding).toMatchObject({ kyc: { isValid: true }, tenure: { contractType: 'PAYG' }, simSwap: { latestSimChangeAt: expect.any(String) as unknown } });

    // SIM management down: the SIM swap signal fails (9999), the HLR signals are answered.
    h.sim.setFault('sim', { down: true });
    const [simDown] = dataOf(await gql(h, ALL, { m: ['255712000012'] })).signals;
    expect(simDown.simSwap).toBeNull();
    expect(simDown.errors).toEqual([{ signal: 'SIM_SWAP', code: '9999', desc: expect.any(String) as unknown }]);
    expect(simDown).toMatchObject({ callForwarding: { unconditional: true }, kyc: { isValid: true }, deviceSwap: { latestDeviceChangeAt: expect.any(String) as unknown } });
  });

  it('when a number is malformed or not a subscriber, then that item says so and the batch is answered', async () => {
    const [bad, none] = dataOf(await gql(h, ALL, { m: ['abc', '255712999999'] })).signals;
    expect(bad).toMatchObject({ msisdn: 'abc', kyc: null, simSwap: null, errors: [{ signal: null, code: '11111', desc: 'Error Process: msisdn is malformed' }] });
    expect(none.kyc).toEqual({ isValid: false, isActive: false, isPrepaid: false });
    expect(none.errors.map((e) => e.signal).sort()).toEqual(['CALL_FORWARDING', 'DEVICE_SWAP', 'SIM_SWAP', 'TENURE']);
  });

  it('when the partner may not use a selected signal\'s operation, then the request is refused; its own signals are answered', async () => {
    const refused = await gql(h, '{ signals(msisdns: ["255712000011"]) { deviceSwap { latestDeviceChangeAt } } }', undefined, signedQuery(DEMO_KYC_ONLY));
    expect(firstError(refused).extensions.code).toBe('11111');
    const allowed = await gql(h, '{ signals(msisdns: ["255712000011"]) { kyc { isValid } tenure { contractType } } }', undefined, signedQuery(DEMO_KYC_ONLY));
    expect(dataOf(allowed).signals).toEqual([{ kyc: { isValid: true }, tenure: { contractType: 'PAYM' } }]);
  });

  it('when more than 100 numbers are sent, then the request is refused before any upstream call', async () => {
    const r = await gql(h, 'query($m: [String!]!) { signals(msisdns: $m) { kyc { isValid } } }', { m: Array.from({ length: 101 }, () => '255712000001') });
    expect(firstError(r).extensions.code).toBe('11111');
    expect(h.sim.calls()).toEqual({ hlr: 0, sim: 0, crm: 0 });
  });
});
