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

  it('accepts a signature made with a timestamp in seconds', async () => {
    expect((await h.post('kyc', body(), { query: signedQuery(DEMO) })).status).toBe(200);
  });

  it('accepts a timestamp in milliseconds, signed over the digits the caller sent', async () => {
    const ms = String(Date.now());
    expect((await h.post('kyc', body(), { query: signedQuery(DEMO, { timestamp: ms }) })).status).toBe(200);
  });

  it('accepts the signature in upper case', async () => {
    const ts = String(nowS());
    const q = `api_key=${DEMO.apiKey}&timestamp=${ts}&sig=${md5Sig(DEMO.apiKey, DEMO.secret, ts).toUpperCase()}`;
    expect((await h.post('kyc', body(), { query: q })).status).toBe(200);
  });

  it('accepts an omitted timestamp when the sig was made with any second inside the window', async () => {
    for (const offset of [0, -290, 290]) {
      const q = signedQuery(DEMO, { timestamp: String(nowS() + offset), omitTimestamp: true });
      expect(q).not.toContain('timestamp');
      expect((await h.post('kyc', body(), { query: q })).status).toBe(200);
    }
  });

  it('refuses an omitted timestamp when the sig was made outside the window', async () => {
    for (const offset of [-400, 400]) {
      const q = signedQuery(DEMO, { timestamp: String(nowS() + offset), omitTimestamp: true });
      expect((await h.post('kyc', body(), { query: q })).status).toBe(401);
    }
  });

  it('refuses a stale timestamp even with a correct signature, in seconds and in milliseconds', async () => {
    expect((await h.post('kyc', body(), { query: signedQuery(DEMO, { timestamp: String(nowS() - 301) }) })).status).toBe(401);
    expect((await h.post('kyc', body(), { query: signedQuery(DEMO, { timestamp: String(Date.now() + 301_000) }) })).status).toBe(401);
  });

  it('accepts an hmac-sha256 partner signing api_key + timestamp with its secret', async () => {
    const r = await h.post('sim_swap', body(), { query: signedQuery(DEMO_HMAC, { hmac: true }) });
    expect(r.status).toBe(200);
  });

  it('refuses an hmac-sha256 partner sending an MD5 signature, or no timestamp', async () => {
    expect((await h.post('kyc', body(), { query: signedQuery(DEMO_HMAC) })).status).toBe(401);
    expect((await h.post('kyc', body(), { query: signedQuery(DEMO_HMAC, { hmac: true, omitTimestamp: true }) })).status).toBe(401);
  });

  it('echoes a valid x-correlator and generates one when absent or invalid', async () => {
    const echoed = await h.post('kyc', body(), { headers: { 'x-correlator': 'abc-123:x/y' } });
    expect(echoed.headers.get('x-correlator')).toBe('abc-123:x/y');
    const generated = await h.post('kyc', body());
    expect(generated.headers.get('x-correlator')).toMatch(/^[0-9a-f-]{36}$/);
    const invalid = await h.post('kyc', body(), { headers: { 'x-correlator': 'bad correlator with spaces' } });
    expect(invalid.headers.get('x-correlator')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('returns the correlator on failures too', async () => {
    const r = await h.post('sim_swap', body(), { query: 'api_key=x&sig=y', headers: { 'x-correlator': 'corr-1' } });
    expect(r.status).toBe(401);
    expect(r.headers.get('x-correlator')).toBe('corr-1');
  });
});
