import { Harness, postJson, startHarness, txnId } from '../support/harness';
import { DEMO, signedQuery } from '../support/signing';

/**
 * The partner operations are matched by one lookup rather than Express routes (for speed,
 * docs/performance.md); they must answer exactly the requests the routes answered: Express
 * matches paths case-insensitively and with one trailing slash, and refuses other methods.
 */
describe('REST routing of the partner operations', () => {
  let h: Harness;
  const base = () => `${h.url}/eai/verify_customer/query`;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it.each([
    ['a trailing slash', '/kyc/'],
    ['upper-case letters', '/KYC'],
  ])('answers a path with %s as Express routing did', async (_name, suffix) => {
    const r = await postJson(`${base()}${suffix}?${signedQuery(DEMO)}`, { txn_id: txnId(), msisdn: '255712000001' });
    expect(r.status).toBe(200);
    expect(r.body.result?.is_valid).toBe('true');
  });

  it('when the answer is a success, then it is sent as JSON with its length', async () => {
    const r = await h.post('kyc', { txn_id: txnId(), msisdn: '255712000001' });
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(r.text));
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('x-correlator')).toBeTruthy();
  });

  it.each(['PUT', 'DELETE', 'PATCH'])("when the method is %s, then 405 with Allow: POST in the operation's shape", async (method) => {
    const res = await fetch(`${base()}/sim_swap?${signedQuery(DEMO)}`, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    const body = (await res.json()) as { response: { code: string } };
    expect(body.response.code).toBe('11111');
  });

  it('when the path is neither operation, then 404', async () => {
    const r = await postJson(`${base()}/kyc2?${signedQuery(DEMO)}`, { txn_id: txnId(), msisdn: '255712000001' });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('11111');
  });

  it('when a partner operation without a legacy path (kyc_match) is asked for as one, then 404', async () => {
    const r = await postJson(`${base()}/kyc_match?${signedQuery(DEMO)}`, { txn_id: txnId(), msisdn: '255712000011' });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('11111');
  });

  it('when the path has a double trailing slash, then it is not the operation', async () => {
    const r = await postJson(`${base()}/kyc//?${signedQuery(DEMO)}`, { txn_id: txnId(), msisdn: '255712000001' });
    expect(r.status).toBe(404);
  });
});
