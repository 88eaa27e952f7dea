import { Harness, startHarness, txnId } from '../support/harness';
import { DEMO, DEMO_HMAC, md5Sig, signedQuery } from '../support/signing';

describe('REST authentication (CONTRACT §1.5)', () => {
  let h: Harness;
  const body = () => ({ txn_id: txnId(), msisdn: '255712000001' });
  const nowS = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('when the signature is made with a timestamp in seconds, then it is accepted', async () => {
    expect((await h.post('kyc', body(), { query: signedQuery(DEMO) })).status).toBe(200);
  });

  it('when the timestamp is in milliseconds, then it is accepted, signed over the digits the caller sent', async () => {
    const ms = String(Date.now());
    expect((await h.post('kyc', body(), { query: signedQuery(DEMO, { timestamp: ms }) })).status).toBe(200);
  });

  it('when the signature is in upper case, then it is accepted', async () => {
    const ts = String(nowS());
    const q = `api_key=${DEMO.apiKey}&timestamp=${ts}&sig=${md5Sig(DEMO.apiKey, DEMO.secret, ts).toUpperCase()}`;
    expect((await h.post('kyc', body(), { query: q })).status).toBe(200);
  });

  it('when the timestamp is omitted and the sig was made with any second inside the window, then it is accepted', async () => {
    for (const offset of [0, -290, 290]) {
      const q = signedQuery(DEMO, { timestamp: String(nowS() + offset), omitTimestamp: true });
      expect(q).not.toContain('timestamp');
      expect((await h.post('kyc', body(), { query: q })).status).toBe(200);
    }
  });

  it('when the timestamp is omitted and the sig was made outside the window, then it is refused', async () => {
    for (const offset of [-400, 400]) {
      const q = signedQuery(DEMO, { timestamp: String(nowS() + offset), omitTimestamp: true });
      expect((await h.post('kyc', body(), { query: q })).status).toBe(401);
    }
  });

  it('when the timestamp is stale, in seconds or milliseconds, then it is refused even with a correct signature', async () => {
    expect((await h.post('kyc', body(), { query: signedQuery(DEMO, { timestamp: String(nowS() - 301) }) })).status).toBe(401);
    expect((await h.post('kyc', body(), { query: signedQuery(DEMO, { timestamp: String(Date.now() + 301_000) }) })).status).toBe(401);
  });

  it('when an hmac-sha256 partner signs api_key + timestamp with its secret, then it is accepted', async () => {
    const r = await h.post('sim_swap', body(), { query: signedQuery(DEMO_HMAC, { hmac: true }) });
    expect(r.status).toBe(200);
  });

  it('when an hmac-sha256 partner sends an MD5 signature or no timestamp, then it is refused', async () => {
    expect((await h.post('kyc', body(), { query: signedQuery(DEMO_HMAC) })).status).toBe(401);
    expect((await h.post('kyc', body(), { query: signedQuery(DEMO_HMAC, { hmac: true, omitTimestamp: true }) })).status).toBe(401);
  });

  it('when x-correlator is valid, then it is echoed; when absent or invalid, then one is generated', async () => {
    const echoed = await h.post('kyc', body(), { headers: { 'x-correlator': 'abc-123:x/y' } });
    expect(echoed.headers.get('x-correlator')).toBe('abc-123:x/y');
    const generated = await h.post('kyc', body());
    expect(generated.headers.get('x-correlator')).toMatch(/^[0-9a-f-]{36}$/);
    const invalid = await h.post('kyc', body(), { headers: { 'x-correlator': 'bad correlator with spaces' } });
    expect(invalid.headers.get('x-correlator')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when a request fails, then the correlator is returned too', async () => {
    const r = await h.post('sim_swap', body(), { query: 'api_key=x&sig=y', headers: { 'x-correlator': 'corr-1' } });
    expect(r.status).toBe(401);
    expect(r.headers.get('x-correlator')).toBe('corr-1');
  });
});
