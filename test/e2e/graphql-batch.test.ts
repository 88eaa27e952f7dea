import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GqlReply, QueryData, dataOf, firstError, gql as gqlRequest } from '../support/graphql-client';
import { Harness, startHarness } from '../support/harness';
import { stringMatching } from '../support/matchers';
import { DEMO, DEMO_KYC_ONLY, signedQuery } from '../support/signing';

/** The shared client with this file's habit: the signed query string as the last argument. */
function gql(h: Harness, query: string, variables?: object, qs = signedQuery(DEMO)): Promise<GqlReply<QueryData>> {
  return gqlRequest(h, query, variables, { qs });
}

const BATCH = `query($m: [String!]!) {
  verifyCustomers(msisdns: $m) {
    msisdn
    kyc { msisdn isPrepaid isActive isValid }
    simSwap { msisdn simSwapped simSwappedAt }
    error { code desc }
  }
}`;

const numbers = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `2557123${String(from + i).padStart(5, '0')}`);

// No caching at all: any saving of upstream calls below is the per-request loader's doing.
const NO_CACHE = { KYC_CACHE_TTL_S: '0', KYC_STALE_S: '0', SIM_SWAP_CACHE_TTL_S: '0', NEGATIVE_CACHE_TTL_S: '0' };

describe('verifyCustomers', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ env: NO_CACHE }); });
  afterAll(() => h.close());
  beforeEach(() => {
    h.sim.resetCalls();
    h.sim.resetFaults();
  });

  it('when a batch holds duplicates, spellings, malformed numbers and non-subscribers, then it is answered with one call per distinct number per upstream', async () => {
    const sent = ['255712000001', '0712000001', '+255712000001', '712000001', '00255712000001',
      'abc', '12345', '255712999999', '0712999999', '255712000006', '255712000002', '255712000002'];
    const r = await gql(h, `query($m: [String!]!) {
      verifyCustomers(msisdns: $m) {
        msisdn kyc { msisdn isPrepaid isActive isValid } simSwap { msisdn simSwapped simSwappedAt } error { code desc }
      }
      kyc(msisdn: "0712000006") { isValid }
    }`, { m: sent });
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    const items = dataOf(r).verifyCustomers;
    expect(items.map((i) => i.msisdn)).toEqual(sent);

    const subscriber = { isPrepaid: true, isActive: true, isValid: true };
    for (const i of [0, 1, 2, 3, 4]) {
      expect(items[i]).toEqual({ msisdn: sent[i], kyc: { msisdn: sent[i], ...subscriber },
        simSwap: { msisdn: sent[i], simSwapped: false, simSwappedAt: null }, error: null });
    }
    for (const i of [5, 6]) {
      expect(items[i]).toEqual({ msisdn: sent[i], kyc: null, simSwap: null, error: { code: '11111', desc: 'Error Process: msisdn is malformed' } });
    }
    for (const i of [7, 8]) {
      expect(items[i]).toEqual({ msisdn: sent[i], kyc: { msisdn: sent[i], isPrepaid: false, isActive: false, isValid: false },
        simSwap: null, error: { code: '11111', desc: 'Error Process: msisdn is not a subscriber' } });
    }
    expect(items[9].simSwap).toMatchObject({ simSwapped: true, simSwappedAt: stringMatching(/\+00:00$/) });
    expect(items[10]).toEqual(items[11]);
    expect(dataOf(r).kyc).toEqual({ isValid: true });
    // Distinct valid numbers: ...001, ...999, ...006 (also in the kyc field), ...002.
    expect(h.sim.calls()).toEqual({ hlr: 4, sim: 4, crm: 0 });
  });

  it('when a batch selects KYC only, then only those facts are fetched and SIM management is not called', async () => {
    const r = await gql(h, 'query($m: [String!]!) { verifyCustomers(msisdns: $m) { msisdn kyc { isValid } } }',
      { m: ['255712000001', '255712000004'] });
    expect(dataOf(r).verifyCustomers).toEqual([
      { msisdn: '255712000001', kyc: { isValid: true } },
      { msisdn: '255712000004', kyc: { isValid: false } },
    ]);
    expect(h.sim.calls()).toEqual({ hlr: 2, sim: 0, crm: 0 });
  });

  it('when @skip skips the SIM-swap selection, then SIM management is not called', async () => {
    const r = await gql(h, `query($m: [String!]!, $noSim: Boolean!) {
      verifyCustomers(msisdns: $m) { msisdn simSwap @skip(if: $noSim) { simSwapped } } }`, { m: ['255712000001'], noSim: true });
    expect(dataOf(r).verifyCustomers).toEqual([{ msisdn: '255712000001' }]);
    expect(h.sim.calls()).toEqual({ hlr: 0, sim: 0, crm: 0 });
  });

  it('when a batch holds 100 distinct numbers, then it is answered', async () => {
    const r = await gql(h, BATCH, { m: numbers(100) });
    expect(dataOf(r).verifyCustomers).toHaveLength(100);
    expect(h.sim.calls()).toEqual({ hlr: 100, sim: 100, crm: 0 });
  });

  it('when a batch holds 101 numbers, then 11111 and no upstream is asked', async () => {
    const r = await gql(h, BATCH, { m: numbers(101) });
    expect(r.status).toBe(200);
    expect(r.body.data).toBeNull();
    expect(r.body.errors).toEqual([expect.objectContaining({
      path: ['verifyCustomers'],
      extensions: { code: '11111', desc: 'Error Process: verifyCustomers takes at most 100 msisdns, got 101' },
    })]);
    expect(h.sim.calls()).toEqual({ hlr: 0, sim: 0, crm: 0 });
  });

  it('when a KYC-only partner batches, then KYC is allowed and SIM swap refused, asking no upstream', async () => {
    const ok = await gql(h, 'query($m: [String!]!) { verifyCustomers(msisdns: $m) { kyc { isValid } } }', { m: ['255712000001'] },
      signedQuery(DEMO_KYC_ONLY));
    expect(ok.body).toEqual({ data: { verifyCustomers: [{ kyc: { isValid: true } }] } });
    h.sim.resetCalls();
    const refused = await gql(h, `query($m: [String!]!) { verifyCustomers(msisdns: $m) { ...facts } }
      fragment facts on CustomerVerification { simSwap { simSwapped } }`,
      { m: ['255712000001'] }, signedQuery(DEMO_KYC_ONLY));
    expect(refused.body.data).toBeNull();
    expect(firstError(refused).extensions).toEqual({ code: '11111', desc: 'Error Process: operation sim_swap is not allowed for this partner' });
    expect(h.sim.calls()).toEqual({ hlr: 0, sim: 0, crm: 0 });
  });

  it('when SIM management fails, then each item carries a 9999 and keeps its KYC, and the batch itself succeeds', async () => {
    h.sim.setFault('sim', { errorRate: 1 });
    const r = await gql(h, BATCH, { m: ['255712000001', 'nope'] });
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    const [good, bad] = dataOf(r).verifyCustomers;
    expect(good.kyc).toMatchObject({ isValid: true });
    expect(good.simSwap).toBeNull();
    expect(good.error?.code).toBe('9999');
    expect(good.error?.desc).toMatch(/^Unexpected system Error/);
    expect(bad.error).toEqual({ code: '11111', desc: 'Error Process: msisdn is malformed' });
  });
});

const KYC_BATCH = `query($m: [String!]!) { verifyCustomers(msisdns: $m) { msisdn kyc { isValid } error { code desc } } }`;

/** The parts of a batch reply the rate-limit tests read, typed. */
function batchReply(r: GqlReply<QueryData>): { items?: unknown[]; errors?: { extensions: { code: string; desc: string } }[] } {
  return { items: r.body.data?.verifyCustomers, errors: r.body.errors };
}

describe('verifyCustomers under a partner rate limit', () => {
  let h: Harness;
  const TIGHT = { apiKey: 'tight-key', secret: 'tight-secret' };
  const SMALL = { apiKey: 'small-key', secret: 'small-secret' };
  const HALVES = { apiKey: 'halves-key', secret: 'halves-secret' };
  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'vc-gql-')), 'partners.json');
    const partner = (name: string, creds: { apiKey: string; secret: string }, burst: number) =>
      ({ name, ...creds, operations: ['kyc', 'sim_swap'], enabled: true, rateLimit: { perSecond: 0.01, burst } });
    writeFileSync(file, JSON.stringify({ partners: [partner('tight', TIGHT, 25), partner('small', SMALL, 5), partner('halves', HALVES, 10)] }));
    h = await startHarness({ env: { PARTNERS_FILE: file } });
  });

  it('when a batch costs more than the burst, then it is refused naming the burst, even with a full bucket', async () => {
    // A cost capped at the burst would let 10 numbers through for 5 tokens: the whole cost is charged.
    const r = batchReply(await gql(h, KYC_BATCH, { m: numbers(10) }, signedQuery(SMALL)));
    expect(r.items).toBeUndefined();
    expect(r.errors?.[0]?.extensions.code).toBe('11111');
    expect(r.errors?.[0]?.extensions.desc).toMatch(/^Error Process: .*10 rate-limit tokens.*burst of 5$/);
    expect(h.sim.calls()).toEqual({ hlr: 0, sim: 0, crm: 0 });
    // The refusal took nothing: a batch the burst covers still goes through.
    const ok = batchReply(await gql(h, KYC_BATCH, { m: numbers(5) }, signedQuery(SMALL)));
    expect(ok.items).toHaveLength(5);
  });

  it("when the SIM-swap half of a batch is refused, then the KYC half's tokens are kept", async () => {
    const first = batchReply(await gql(h, BATCH, { m: numbers(3) }, signedQuery(HALVES))); // 6 of 10 tokens
    expect(first.items).toHaveLength(3);
    const refused = batchReply(await gql(h, BATCH, { m: numbers(3, 10) }, signedQuery(HALVES))); // 6 more: refused whole
    expect(refused.errors?.[0]?.extensions).toEqual({ code: '11111', desc: 'Error Process: rate limit exceeded' });
    // The 4 tokens left are all still there.
    const kycOnly = batchReply(await gql(h, KYC_BATCH, { m: numbers(4, 20) }, signedQuery(HALVES)));
    expect(kycOnly.errors).toBeUndefined();
    expect(kycOnly.items).toHaveLength(4);
  });
  afterAll(() => h.close());

  it('when a second 10-number batch comes over a burst of 25, then it is refused: one token per number and operation', async () => {
    const first = await gql(h, BATCH, { m: numbers(10) }, signedQuery(TIGHT));
    expect(dataOf(first).verifyCustomers).toHaveLength(10);
    h.sim.resetCalls();
    const second = await gql(h, BATCH, { m: numbers(10) }, signedQuery(TIGHT));
    expect(second.body.data).toBeNull();
    expect(firstError(second).extensions).toEqual({ code: '11111', desc: 'Error Process: rate limit exceeded' });
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(h.sim.calls()).toEqual({ hlr: 0, sim: 0, crm: 0 });
  });
});
