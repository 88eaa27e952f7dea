import { Harness, startHarness, txnId } from '../support/harness';
import { buildRequest, expectContinue } from '../support/raw-http';
import { DEMO, md5Sig, signedQuery } from '../support/signing';

/*
 * `Expect: 100-continue` invites the body only once the request has been
 * authenticated and its declared size accepted; a refused request gets its final answer
 * (401, 413) without a 100, and the connection is closed behind it.
 */

const KYC = '/eai/verify_customer/query/kyc';
const LIMIT = 1024;

function head(target: string, contentLength: number, extra: [string, string][] = []): Buffer {
  return buildRequest({
    target, contentLength,
    headers: [['Content-Type', 'application/json'], ['Expect', '100-continue'], ...extra],
  });
}

function gqlHeaders(): [string, string][] {
  const ts = String(Math.floor(Date.now() / 1000));
  return [['x-api-key', DEMO.apiKey], ['x-timestamp', ts], ['x-signature', md5Sig(DEMO.apiKey, DEMO.secret, ts)]];
}

describe('Expect: 100-continue (the body is invited only once the request is accepted)', () => {
  let h: Harness;
  const EVENTS_TOKEN = 'events-token-for-expect-continue';
  beforeAll(async () => { h = await startHarness({ env: { BODY_LIMIT_BYTES: String(LIMIT), EVENTS_TOKEN } }); });
  afterAll(() => h.close());

  describe('REST', () => {
    const body = () => JSON.stringify({ txn_id: txnId('c'), msisdn: '255712000001' });

    it('when the request is unsigned, then 401 without 100 Continue, and the connection closes', async () => {
      const b = body();
      const r = await expectContinue(h.server.port, head(KYC, b.length), b);
      expect(r.continued).toBe(false);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ code: '11111', desc: 'Error Process: api_key is required' });
      expect(r.headers.get('connection')).toBe('close');
      expect(r.closed).toBe(true);
    });

    it('when the signature is wrong, then 401 without 100 Continue', async () => {
      const b = body();
      const ts = String(Math.floor(Date.now() / 1000));
      const r = await expectContinue(h.server.port, head(`${KYC}?api_key=${DEMO.apiKey}&timestamp=${ts}&sig=${'0'.repeat(32)}`, b.length), b);
      expect(r.continued).toBe(false);
      expect(r.status).toBe(401);
    });

    it('when a signed request declares a body over the limit, then 413 without 100 Continue', async () => {
      const r = await expectContinue(h.server.port, head(`${KYC}?${signedQuery(DEMO)}`, LIMIT + 1), 'x'.repeat(LIMIT + 1));
      expect(r.continued).toBe(false);
      expect(r.status).toBe(413);
      expect(r.body).toEqual({ code: '11111', desc: `Error Process: body larger than ${LIMIT} bytes` });
      expect(r.elapsedMs).toBeLessThan(2000);
    });

    it('when a signed request is within the limit, then 100 Continue, then its answer', async () => {
      const b = body();
      const r = await expectContinue(h.server.port, head(`${KYC}?${signedQuery(DEMO)}`, b.length), b);
      expect(r.continued).toBe(true);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ code: '00000', result: { msisdn: '255712000001' } });
    });
  });

  describe('the events route', () => {
    const body = JSON.stringify({ msisdn: '255712000001' });

    it('when the bearer token is missing, then 401 without 100 Continue', async () => {
      const r = await expectContinue(h.server.port, head('/internal/events/sim-swap', body.length), body);
      expect(r.continued).toBe(false);
      expect(r.status).toBe(401);
    });

    it('when the bearer token is given, then 100 Continue, then its answer', async () => {
      const r = await expectContinue(h.server.port, head('/internal/events/sim-swap', body.length, [['Authorization', `Bearer ${EVENTS_TOKEN}`]]), body);
      expect(r.continued).toBe(true);
      expect(r.status).toBe(200);
    });
  });

  describe('GraphQL', () => {
    const query = JSON.stringify({ query: '{ kyc(msisdn: "255712000001") { isValid } }' });

    it('when the request is unsigned, then 401 without 100 Continue', async () => {
      const r = await expectContinue(h.server.port, head('/graphql', query.length), query);
      expect(r.continued).toBe(false);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ errors: [{ message: 'Error Process: api_key is required', extensions: { code: '11111', desc: 'Error Process: api_key is required' } }] });
      expect(r.headers.get('connection')).toBe('close');
    });

    it('when a request signed in headers declares a body over the limit, then 413 without 100 Continue', async () => {
      const r = await expectContinue(h.server.port, head('/graphql', LIMIT + 1, gqlHeaders()), 'x'.repeat(LIMIT + 1));
      expect(r.continued).toBe(false);
      expect(r.status).toBe(413);
    });

    it('when a request is signed in headers, then 100 Continue, then its answer', async () => {
      const r = await expectContinue(h.server.port, head('/graphql', query.length, gqlHeaders()), query);
      expect(r.continued).toBe(true);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ data: { kyc: { isValid: true } } });
    });

    it('when a request is signed in the query string, then 100 Continue, then its answer', async () => {
      const r = await expectContinue(h.server.port, head(`/graphql?${signedQuery(DEMO)}`, query.length), query);
      expect(r.continued).toBe(true);
      expect(r.status).toBe(200);
    });
  });
});
