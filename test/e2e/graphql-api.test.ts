import { IntrospectionQuery, getIntrospectionQuery } from 'graphql';
import { dataOf, firstError, gql } from '../support/graphql-client';
import { Harness, startHarness, txnId } from '../support/harness';
import { DEMO, DEMO_DISABLED, DEMO_KYC_ONLY, md5Sig, signedQuery } from '../support/signing';
import { until } from '../support/until';

const ISO_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

describe('GraphQL API over HTTP', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(() => h.close());
  beforeEach(() => h.sim.resetCalls());

  it('when kyc is asked, then it answers real booleans and echoes the msisdn as sent', async () => {
    const r = await gql(h, '{ kyc(msisdn: "0712000002") { msisdn isPrepaid isActive isValid } }');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { kyc: { msisdn: '0712000002', isPrepaid: false, isActive: true, isValid: true } } });
  });

  it('when kyc is asked for a well-formed number that is not a subscriber, then it is a success with every fact false', async () => {
    const r = await gql(h, '{ kyc(msisdn: "255712999901") { isPrepaid isActive isValid } }');
    expect(r.body).toEqual({ data: { kyc: { isPrepaid: false, isActive: false, isValid: false } } });
  });

  it('when simSwap is asked for a recently swapped number, then it gives an ISO 8601 date-time with a numeric offset', async () => {
    const r = await gql(h, '{ simSwap(msisdn: "+255712000006") { msisdn simSwapped simSwappedAt } }');
    const { simSwap } = dataOf(r);
    expect(simSwap).toMatchObject({ msisdn: '+255712000006', simSwapped: true });
    expect(simSwap.simSwappedAt).toMatch(ISO_OFFSET);
    const ageH = (Date.now() - Date.parse(simSwap.simSwappedAt ?? '')) / 3_600_000;
    expect(ageH).toBeGreaterThan(2.9);
    expect(ageH).toBeLessThan(3.1);
  });

  it('when simSwap has a window shorter than the swap, then it says false and has no date', async () => {
    const r = await gql(h, '{ simSwap(msisdn: "255712000006", maxAgeHours: 1) { simSwapped simSwappedAt } }');
    expect(r.body).toEqual({ data: { simSwap: { simSwapped: false, simSwappedAt: null } } });
  });

  it('when simSwap is asked for a number that is not a subscriber, then a 11111 error and no data', async () => {
    const r = await gql(h, '{ simSwap(msisdn: "255712999902") { simSwapped } }');
    expect(r.status).toBe(200);
    expect(r.body.data).toBeNull();
    expect(r.body.errors).toEqual([{
      message: 'Error Process: msisdn is not a subscriber',
      extensions: { code: '11111', desc: 'Error Process: msisdn is not a subscriber' },
      locations: [{ line: 1, column: 3 }],
      path: ['simSwap'],
    }]);
  });

  it('when the msisdn is malformed or maxAgeHours out of range, then a 11111 naming the problem, without an upstream call', async () => {
    const malformed = await gql(h, '{ kyc(msisdn: "07-12") { isValid } }');
    const badWindow = await gql(h, '{ simSwap(msisdn: "255712000001", maxAgeHours: 0) { simSwapped } }');
    expect(firstError(malformed).extensions).toEqual({ code: '11111', desc: 'Error Process: msisdn is malformed' });
    expect(firstError(badWindow).extensions).toEqual({ code: '11111', desc: 'Error Process: maxAgeHours must be an integer from 1 to 2400' });
    expect(h.sim.calls()).toEqual({ hlr: 0, sim: 0, crm: 0 });
  });

  describe('txnId follows the REST txn_id rules', () => {
    it('when a retry has the same txnId, then it gets the stored answer, marked Idempotent-Replayed', async () => {
      const id = txnId('g');
      const q = `{ kyc(msisdn: "255712000003", txnId: "${id}") { msisdn isActive isValid } }`;
      const first = await gql(h, q);
      const again = await gql(h, q);
      expect(first.body).toEqual({ data: { kyc: { msisdn: '255712000003', isActive: false, isValid: true } } });
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    });

    it('when the same txnId comes for another number, then a 11111 conflict', async () => {
      const id = txnId('g');
      await gql(h, `{ simSwap(msisdn: "255712000001", txnId: "${id}") { simSwapped } }`);
      const r = await gql(h, `{ simSwap(msisdn: "255712000002", txnId: "${id}") { simSwapped } }`);
      expect(r.body.data).toBeNull();
      expect(firstError(r).extensions).toEqual({ code: '11111', desc: 'Error Process: txn_id already used for a different request' });
    });

    it('when a txn_id was used over REST, then it is the same txn_id for GraphQL', async () => {
      const id = txnId('g');
      const rest = await h.post('kyc', { txn_id: id, msisdn: '255712000005' });
      expect(rest.status).toBe(200);
      const r = await gql(h, `{ kyc(msisdn: "255712000005", txnId: "${id}") { isActive } }`);
      expect(r.body).toEqual({ data: { kyc: { isActive: false } } });
      expect(r.headers.get('idempotent-replayed')).toBe('true');
    });

    it('when the txnId is malformed, then it is refused naming txnId', async () => {
      const r = await gql(h, '{ kyc(msisdn: "255712000001", txnId: "has space") { isValid } }');
      expect(firstError(r).extensions.desc).toBe('Error Process: txnId must be 1-25 characters of A-Z a-z 0-9 . _ : -');
    });
  });

  describe('authentication as REST', () => {
    it('when the credentials come as x-api-key, x-timestamp and x-signature headers, then they are accepted', async () => {
      const ts = String(Math.floor(Date.now() / 1000));
      const r = await gql(h, '{ kyc(msisdn: "255712000001") { isValid } }', undefined, {
        qs: '', headers: { 'x-api-key': DEMO.apiKey, 'x-timestamp': ts, 'x-signature': md5Sig(DEMO.apiKey, DEMO.secret, ts) },
      });
      expect(r.body).toEqual({ data: { kyc: { isValid: true } } });
    });

    const ts = () => String(Math.floor(Date.now() / 1000));
    it.each([
      ['no credentials', () => ''],
      ['a wrong signature', () => `api_key=${DEMO.apiKey}&timestamp=${ts()}&sig=${md5Sig(DEMO.apiKey, 'wrong', ts())}`],
      ['a timestamp outside the window', () => signedQuery(DEMO, { timestamp: String(Math.floor(Date.now() / 1000) - 3600) })],
      ['a disabled partner', () => signedQuery(DEMO_DISABLED)],
    ])('refuses %s with 401 and a 11111, before any GraphQL work', async (_name, qs) => {
      const r = await gql(h, '{ kyc(msisdn: "255712000001") { isValid } }', undefined, { qs: qs() });
      expect(r.status).toBe(401);
      expect(r.body.data).toBeUndefined();
      expect(r.body.errors).toHaveLength(1);
      expect(firstError(r).extensions.code).toBe('11111');
      expect(firstError(r).message).toMatch(/^Error Process: /);
      expect(h.sim.calls()).toEqual({ hlr: 0, sim: 0, crm: 0 });
    });

    it("when a field's operation is not allowed to the partner, then that field is refused", async () => {
      const r = await gql(h, '{ kyc(msisdn: "255712000001") { isValid } simSwap(msisdn: "255712000001") { simSwapped } }',
        undefined, { qs: signedQuery(DEMO_KYC_ONLY) });
      expect(r.status).toBe(200);
      expect(r.body.data).toBeNull(); // simSwap is non-null, so its error nulls the whole data
      expect(r.body.errors).toEqual([expect.objectContaining({
        path: ['simSwap'], extensions: { code: '11111', desc: 'Error Process: operation sim_swap is not allowed for this partner' },
      })]);
      const kycOnly = await gql(h, '{ kyc(msisdn: "255712000001") { isValid } }', undefined, { qs: signedQuery(DEMO_KYC_ONLY) });
      expect(kycOnly.body).toEqual({ data: { kyc: { isValid: true } } });
      expect(h.sim.calls().sim).toBe(0);
    });
  });

  describe('limits', () => {
    it('when a query costs more than 200 upstream lookups, then 400, before any upstream call', async () => {
      const many = Array.from({ length: 100 }, (_, i) => `2557121${String(i).padStart(5, '0')}`);
      const r = await gql(h, `query($m: [String!]!) {
        verifyCustomers(msisdns: $m) { kyc { isValid } simSwap { simSwapped } }
        kyc(msisdn: "255712000001") { isValid } }`, { m: many });
      expect(r.status).toBe(400);
      expect(r.body.errors).toHaveLength(1);
      expect(firstError(r).extensions.code).toBe('11111');
      expect(firstError(r).message).toMatch(/^Error Process: query cost 201 exceeds the limit of 200 upstream lookups/);
      expect(h.sim.calls()).toEqual({ hlr: 0, sim: 0, crm: 0 });
    });

    it('when a query is deeper than the limit, then 400', async () => {
      const r = await gql(h, '{ verifyCustomers(msisdns: []) { kyc { isValid { a { b } } } } }');
      expect(r.status).toBe(400);
      expect((r.body.errors ?? []).map((e) => e.message))
        .toContain('Error Process: query depth 5 exceeds the limit of 4');
    });

    it('when nothing is set, then introspection is off', async () => {
      for (const q of ['{ __schema { queryType { name } } }', '{ __type(name: "Kyc") { name } }']) {
        const r = await gql(h, q);
        expect(r.status).toBe(400);
        expect(firstError(r).extensions).toEqual({ code: '11111', desc: 'Error Process: introspection is disabled on this server' });
      }
    });

    it('when a caller may not introspect, then field names are not suggested', async () => {
      const r = await gql(h, '{ kycc(msisdn: "255712000001") { isValid } }');
      expect(r.status).toBe(400);
      expect(firstError(r).message).toBe('Error Process: Cannot query field "kycc" on type "Query".');
    });
  });

  describe('HTTP', () => {
    it('when a simple (CSRF-able) POST comes, then 400 and no upstream call', async () => {
      const res = await fetch(`${h.url}/graphql?${signedQuery(DEMO)}`, {
        method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"query":"{ kyc(msisdn: \\"255712000001\\") { isValid } }"}',
      });
      const body = await res.json() as { errors: { message: string; extensions: { code: string } }[] };
      expect(res.status).toBe(400);
      expect(body.errors[0].extensions.code).toBe('11111');
      expect(body.errors[0].message).toMatch(/Cross-Site Request Forgery/);
      expect(h.sim.calls()).toEqual({ hlr: 0, sim: 0, crm: 0 });
    });

    it('when the body is not JSON, then 400 and a 11111 in the GraphQL error shape', async () => {
      const res = await fetch(`${h.url}/graphql?${signedQuery(DEMO)}`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":',
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ errors: [{ message: 'Error Process: body is not valid JSON',
        extensions: { code: '11111', desc: 'Error Process: body is not valid JSON' } }] });
    });

    it('when GET is used, then 405 with Allow: POST: no landing page', async () => {
      const res = await fetch(`${h.url}/graphql?${signedQuery(DEMO)}`, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('when GraphQL requests are served, then they are counted under interface="graphql"', async () => {
      await gql(h, '{ kyc(msisdn: "255712000001") { isValid } }');
      const text = await (await fetch(`${h.url}/metrics`)).text();
      expect(text).toMatch(/verify_requests_total\{[^}]*interface="graphql"[^}]*code="00000"[^}]*status="200"[^}]*\} [1-9]/);
    });
  });
});

describe('GraphQL with GRAPHQL_INTROSPECTION=true', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ env: { GRAPHQL_INTROSPECTION: 'true' } }); });
  afterAll(() => h.close());

  it('when the standard introspection query comes, then it is answered: the depth limit does not count it', async () => {
    const r = await gql<IntrospectionQuery>(h, getIntrospectionQuery());
    expect(r.status).toBe(200);
    const names = dataOf(r).__schema.types.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['Kyc', 'SimSwap', 'CustomerVerification', 'VerificationError', 'DateTime']));
  });
});

describe('GraphQL during shutdown', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(() => h.close());

  it('when the server drains, then an in-flight query finishes and no more connections are accepted', async () => {
    h.sim.setFault('hlr', { latencyMs: 300 });
    const hlrCalls = h.sim.calls().hlr;
    const inFlight = gql(h, '{ kyc(msisdn: "255712000001") { isValid } }');
    await until(() => h.sim.calls().hlr > hlrCalls, 'the query\'s lookup at the HLR');
    const closed = h.server.close();
    const r = await inFlight;
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { kyc: { isValid: true } } });
    await closed;
    await expect(gql(h, '{ kyc(msisdn: "255712000001") { isValid } }')).rejects.toThrow();
  });
});
