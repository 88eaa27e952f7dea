import { dataOf, gql } from '../support/graphql-client';
import { Harness, startHarness } from '../support/harness';

/*
 * Internal apps see over GraphQL what CAMARA now tells partners — the line's
 * tenure and contract type on Kyc, the latest SIM change on SimSwap — from the same cached facts.
 * Demo fixture (fixtures/demo-subscribers.json), times relative to the simulator's start.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;

describe('GraphQL tenure and latest SIM change (CAMARA facts for internal apps)', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(() => h.close());

  const ageOf = (iso: string | null | undefined) => (iso ? Date.now() - Date.parse(iso) : NaN);

  it('when the line is valid, then Kyc carries tenureSince and contractType; when it is not, then null', async () => {
    const r = await gql(h, `{
      prepaid: kyc(msisdn: "255712000001") { tenureSince contractType }
      postpaid: kyc(msisdn: "255712000002") { tenureSince contractType }
      business: kyc(msisdn: "255712000009") { tenureSince contractType }
      terminated: kyc(msisdn: "255712000004") { isValid tenureSince contractType }
      unknown: kyc(msisdn: "255712999901") { isValid tenureSince contractType }
    }`);
    expect(r.status).toBe(200);
    const d = dataOf(r) as unknown as Record<string, { tenureSince: string | null; contractType: string | null; isValid?: boolean }>;
    expect(d.prepaid?.contractType).toBe('PAYG');
    expect(Math.round(ageOf(d.prepaid?.tenureSince) / DAY)).toBe(1460);
    expect(d.postpaid?.contractType).toBe('PAYM');
    expect(Math.round(ageOf(d.postpaid?.tenureSince) / DAY)).toBe(400);
    expect(d.business?.contractType).toBe('BUSINESS');
    expect(d.terminated).toEqual({ isValid: false, tenureSince: null, contractType: null });
    expect(d.unknown).toEqual({ isValid: false, tenureSince: null, contractType: null });
  });

  it("when SimSwap is asked with any window, then latestSimChangeAt is the latest swap, else the current SIM's activation", async () => {
    const r = await gql(h, `{
      swapped: simSwap(msisdn: "255712000006") { simSwapped simSwappedAt latestSimChangeAt }
      outside: simSwap(msisdn: "255712000007", maxAgeHours: 24) { simSwapped simSwappedAt latestSimChangeAt }
      never: simSwap(msisdn: "255712000002") { simSwapped latestSimChangeAt }
    }`);
    expect(r.status).toBe(200);
    const d = dataOf(r) as unknown as Record<string, { simSwapped: boolean; simSwappedAt?: string | null; latestSimChangeAt: string | null }>;
    expect(d.swapped?.simSwapped).toBe(true);
    expect(d.swapped?.latestSimChangeAt).toBe(d.swapped?.simSwappedAt);
    expect(Math.round(ageOf(d.swapped?.latestSimChangeAt) / HOUR)).toBe(3);
    // Swapped 90 days ago: outside a 24 h window, but still the latest change.
    expect(d.outside?.simSwapped).toBe(false);
    expect(d.outside?.simSwappedAt).toBeNull();
    expect(Math.round(ageOf(d.outside?.latestSimChangeAt) / DAY)).toBe(90);
    // Never swapped: the current SIM came with the line.
    expect(d.never?.simSwapped).toBe(false);
    expect(Math.round(ageOf(d.never?.latestSimChangeAt) / DAY)).toBe(400);
  });

  it('when legacy REST answers, then its bodies stay exactly as the contract says (no tenure fields)', async () => {
    const kyc = await h.post('kyc', { txn_id: 'gql-tenure-1', msisdn: '255712000001' });
    expect(kyc.body).toEqual({ code: '00000', desc: 'Success', result: { msisdn: '255712000001', is_prepaid: 'true', is_active: 'true', is_valid: 'true' } });
    const swap = await h.post('sim_swap', { txn_id: 'gql-tenure-2', msisdn: '255712000002' });
    expect(swap.body).toEqual({ code: '00000', desc: 'Success', result: { msisdn: '255712000002', sim_swapped: 'false' } });
  });
});
