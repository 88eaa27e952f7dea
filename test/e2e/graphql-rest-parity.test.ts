import { readFileSync } from 'node:fs';
import { defaultFixturesPath } from '../../src/simulator/fixtures';
import { GqlReply, QueryData, dataOf, firstError, gql as gqlRequest } from '../support/graphql-client';
import { Harness, resultOf, startHarness, txnId } from '../support/harness';

interface Facts {
  kyc: { msisdn: string; isPrepaid: boolean; isActive: boolean; isValid: boolean };
  simSwap: { msisdn: string; simSwapped: boolean; simSwappedAt: string | null } | { code: string; desc: string };
}

const fixture = JSON.parse(readFileSync(defaultFixturesPath(), 'utf8')) as { subscribers: { msisdn: string }[] };
// Every demo subscriber, each in a national spelling too, and one number the operator does not have.
const NUMBERS = [...fixture.subscribers.map((s) => s.msisdn), ...fixture.subscribers.map((s) => `0${s.msisdn.slice(3)}`), '255712999977'];

/** What REST says about a number, in GraphQL's vocabulary. */
async function viaRest(h: Harness, msisdn: string): Promise<Facts> {
  const kyc = await h.post('kyc', { txn_id: txnId('p'), msisdn });
  expect(kyc.status).toBe(200);
  const k = resultOf(kyc);
  const sim = await h.post('sim_swap', { txn_id: txnId('p'), msisdn });
  const s = sim.status === 200
    ? { msisdn: resultOf(sim).msisdn, simSwapped: sim.body.result?.sim_swapped === 'true', simSwappedAt: sim.body.result?.sim_swapped_dt ?? null }
    : { code: sim.body.response?.code ?? '', desc: sim.body.response?.desc ?? '' };
  return {
    kyc: { msisdn: k.msisdn, isPrepaid: k.is_prepaid === 'true', isActive: k.is_active === 'true', isValid: k.is_valid === 'true' },
    simSwap: s,
  };
}

async function gql(h: Harness, query: string, variables?: object): Promise<GqlReply<QueryData>> {
  const r = await gqlRequest(h, query, variables);
  expect(r.status).toBe(200);
  return r;
}

/** What the single GraphQL queries say about a number. */
async function viaGraphqlSingles(h: Harness, msisdn: string): Promise<Facts> {
  const k = await gql(h, 'query($m: String!) { kyc(msisdn: $m) { msisdn isPrepaid isActive isValid } }', { m: msisdn });
  const s = await gql(h, 'query($m: String!) { simSwap(msisdn: $m) { msisdn simSwapped simSwappedAt } }', { m: msisdn });
  return { kyc: dataOf(k).kyc, simSwap: s.body.data ? s.body.data.simSwap : { code: firstError(s).extensions.code, desc: firstError(s).extensions.desc } };
}

// A zone with a non-zero offset shows both interfaces use the same formatter and zone.
describe.each(['UTC', 'Africa/Dar_es_Salaam'])('GraphQL and REST report the same facts (TIMEZONE=%s)', (zone) => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ env: { TIMEZONE: zone } }); });
  afterAll(() => h.close());

  it('when every number of the demo fixture is asked, in single queries and in one batch, then both report the same facts', async () => {
    const rest = new Map<string, Facts>();
    for (const m of NUMBERS) rest.set(m, await viaRest(h, m));

    for (const m of NUMBERS) expect({ [m]: await viaGraphqlSingles(h, m) }).toEqual({ [m]: rest.get(m) });

    const batch = await gql(h, `query($m: [String!]!) { verifyCustomers(msisdns: $m) {
      msisdn kyc { msisdn isPrepaid isActive isValid } simSwap { msisdn simSwapped simSwappedAt } error { code desc } } }`, { m: NUMBERS });
    for (const item of dataOf(batch).verifyCustomers) {
      expect({ [item.msisdn]: { kyc: item.kyc, simSwap: item.simSwap ?? item.error } }).toEqual({ [item.msisdn]: rest.get(item.msisdn) });
    }
    expect(dataOf(batch).verifyCustomers).toHaveLength(NUMBERS.length);
    // The fixture holds swapped and never-swapped numbers, so both shapes were compared.
    const swaps = [...rest.values()].map((f) => ('simSwapped' in f.simSwap ? f.simSwap.simSwapped : 'error'));
    expect(new Set(swaps)).toEqual(new Set([true, false, 'error']));
  });
});
