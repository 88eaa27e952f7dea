import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Harness, startHarness } from '../support/harness';
import { basicAuth, requestToken } from '../support/oauth';
import { buildRequest, expectContinue } from '../support/raw-http';
import { DEMO } from '../support/signing';

/*
 * The token endpoint's transport details: the form is UTF-8 only, `Expect: 100-continue` is
 * answered (a careful client otherwise waits for ever), and a partner's rate limit applies to
 * its token requests as to its verification requests.
 */

const LIMIT = 1024;
const FORM = 'grant_type=client_credentials';

function head(contentLength: number, headers: [string, string][]): Buffer {
  return buildRequest({ target: '/oauth2/token', contentLength, headers: [['Expect', '100-continue'], ...headers] });
}

describe('token endpoint: charset and Expect: 100-continue', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ env: { BODY_LIMIT_BYTES: String(LIMIT) } }); });
  afterAll(() => h?.close());

  it.each(['iso-8859-1', 'ISO-8859-1', '"iso-8859-1"', 'latin1', 'utf-16'])('when the form declares charset=%s, then 400 invalid_request and no token', async (charset) => {
    const r = await requestToken(h.url, { clientId: DEMO.apiKey, clientSecret: DEMO.secret, contentType: `application/x-www-form-urlencoded; charset=${charset}` });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid_request', error_description: 'charset must be utf-8' });
  });

  it('when the form declares charset=utf-8, then the token is issued', async () => {
    const r = await requestToken(h.url, { clientId: DEMO.apiKey, clientSecret: DEMO.secret, contentType: 'application/x-www-form-urlencoded; charset=UTF-8' });
    expect(r.status).toBe(200);
  });

  it('when a client waits for 100 Continue with a valid request, then it is invited and gets its token', async () => {
    const r = await expectContinue(h.server.port, head(FORM.length, [
      ['Content-Type', 'application/x-www-form-urlencoded'], ['Authorization', basicAuth(DEMO.apiKey, DEMO.secret)],
    ]), FORM, 3000);
    expect(r.continued).toBe(true);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ token_type: 'Bearer' });
    expect(r.elapsedMs).toBeLessThan(2000);
  });

  it('when a client waits for 100 Continue with a wrong content type or charset, then it gets 400 at once, not invited', async () => {
    for (const type of ['application/json', 'application/x-www-form-urlencoded; charset=iso-8859-1']) {
      const r = await expectContinue(h.server.port, head(FORM.length, [['Content-Type', type]]), FORM, 3000);
      expect([type, r.continued, r.status, (r.body as { error?: string } | undefined)?.error]).toEqual([type, false, 400, 'invalid_request']);
      expect(r.elapsedMs).toBeLessThan(2000);
    }
  });

  it('when a client waits for 100 Continue declaring a body over BODY_LIMIT_BYTES, then it gets 400 at once, not invited', async () => {
    const r = await expectContinue(h.server.port, head(LIMIT + 1, [['Content-Type', 'application/x-www-form-urlencoded']]), 'x'.repeat(LIMIT + 1), 3000);
    expect(r.continued).toBe(false);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid_request', error_description: 'body too large' });
    expect(r.headers.get('connection')).toBe('close');
  });
});

describe('token endpoint: the partner rate limit', () => {
  let h: Harness;
  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'vc-token-rate-')), 'partners.json');
    writeFileSync(file, JSON.stringify({ partners: [
      { name: 'limited', apiKey: 'limited-key', secret: 'limited-secret', operations: ['kyc', 'sim_swap'], rateLimit: { perSecond: 1, burst: 1 } },
      { name: 'free', apiKey: 'free-key', secret: 'free-secret', operations: ['kyc'] },
      { name: 'guarded', apiKey: 'guarded-key', secret: 'guarded-secret', operations: ['kyc'], rateLimit: { perSecond: 0.01, burst: 1 } },
    ] }));
    h = await startHarness({ env: { PARTNERS_FILE: file } });
  });
  afterAll(() => h?.close());

  it('when a partner limited to 1/s asks 30 tokens at once, then at most 2 are issued and the rest get 429 temporarily_unavailable with Retry-After', async () => {
    const replies = await Promise.all(Array.from({ length: 30 }, () => requestToken(h.url, { clientId: 'limited-key', clientSecret: 'limited-secret' })));
    const issued = replies.filter((r) => r.status === 200).length;
    expect(issued).toBeGreaterThanOrEqual(1);
    expect(issued).toBeLessThanOrEqual(2); // the burst, plus one refill if the 30 straddle a second
    const refused = replies.filter((r) => r.status === 429);
    expect(refused.length).toBe(30 - issued);
    for (const r of refused) {
      expect(r.body).toEqual({ error: 'temporarily_unavailable', error_description: 'rate limit exceeded' });
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });

  it('when a wrong secret is sent for a rate-limited partner, then it is 401 and spends none of the partner\'s budget', async () => {
    // A burst of one that refills in 100 s: the one request the budget allows is still there after 5 wrong secrets.
    for (let i = 0; i < 5; i++) expect((await requestToken(h.url, { clientId: 'guarded-key', clientSecret: 'wrong' })).status).toBe(401);
    expect((await requestToken(h.url, { clientId: 'guarded-key', clientSecret: 'guarded-secret' })).status).toBe(200);
    expect((await requestToken(h.url, { clientId: 'guarded-key', clientSecret: 'guarded-secret' })).status).toBe(429);
  });

  it('when a partner has no rate limit, then its token requests are not limited', async () => {
    const replies = await Promise.all(Array.from({ length: 10 }, () => requestToken(h.url, { clientId: 'free-key', clientSecret: 'free-secret' })));
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
  });
});
