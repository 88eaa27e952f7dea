import { Harness, startHarness } from '../support/harness';
import { requestToken } from '../support/oauth';
import { DEMO } from '../support/signing';

/*
 * The token endpoint's failed client authentications go through the one failed-authentication
 * throttle the signed routes use, keyed by the same client address unit (clientAddressKey: an
 * IPv6 /64, an IPv4-mapped address as its IPv4), into the same buckets, and show on /metrics.
 * TRUST_PROXY_HOPS=1 lets each request name its client address in X-Forwarded-For.
 */

const KYC_BODY = { txn_id: 'unused', msisdn: '255712000001' };

async function wrongSecret(h: Harness, from: string): Promise<number> {
  const r = await requestToken(h.url, { clientId: DEMO.apiKey, clientSecret: 'wrong', headers: { 'x-forwarded-for': from } });
  return r.status;
}

async function wrongSignature(h: Harness, from: string): Promise<number> {
  const ts = String(Math.floor(Date.now() / 1000));
  const r = await h.post('kyc', { ...KYC_BODY, txn_id: `t-${Math.random()}` }, {
    query: `api_key=${DEMO.apiKey}&timestamp=${ts}&sig=${'0'.repeat(32)}`, headers: { 'x-forwarded-for': from },
  });
  return r.status;
}

async function authFailures(h: Harness): Promise<Map<string, number>> {
  const text = await (await fetch(`${h.url}/metrics`)).text();
  const out = new Map<string, number>();
  for (const m of text.matchAll(/^verify_auth_failures_total\{([^}]*)\} (\d+)/gm)) {
    const iface = /interface="([a-z]+)"/.exec(m[1])?.[1];
    const reason = /reason="([a-z_]+)"/.exec(m[1])?.[1];
    out.set(`${iface}/${reason}`, Number(m[2]));
  }
  return out;
}

describe('token endpoint: one failed-authentication throttle, one address key, counted', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ env: { TRUST_PROXY_HOPS: '1' } }); });
  afterAll(() => h?.close());

  it('when 60 wrong secrets come from 60 addresses of one IPv6 /64, then the first AUTH_FAIL_LIMIT (20) get 401 and the rest 429 with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 60; i++) statuses.push(await wrongSecret(h, `2001:db8:aa:bb::${i.toString(16)}`));
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual(Array(40).fill(429));
    const r = await requestToken(h.url, { clientId: DEMO.apiKey, clientSecret: DEMO.secret, headers: { 'x-forwarded-for': '2001:db8:aa:bb:ffff::1' } });
    expect(r.status).toBe(429);
    expect(r.body.error).toBe('temporarily_unavailable');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another /64 is another address.
    expect(await wrongSecret(h, '2001:db8:aa:bc::1')).toBe(401);
  });

  it('when the failures come as ::ffff:203.0.113.7 and as 203.0.113.7, then they fill one bucket', async () => {
    for (let i = 0; i < 10; i++) expect(await wrongSecret(h, '::ffff:203.0.113.7')).toBe(401);
    for (let i = 0; i < 10; i++) expect(await wrongSecret(h, '203.0.113.7')).toBe(401);
    expect(await wrongSecret(h, '203.0.113.7')).toBe(429);
    expect(await wrongSecret(h, '::ffff:cb00:7107')).toBe(429);
  });

  it('when wrong secrets at the token endpoint are followed by wrong signatures on a legacy route, then they share the budget both ways', async () => {
    for (let i = 0; i < 12; i++) expect(await wrongSecret(h, '::ffff:198.51.100.4')).toBe(401);
    for (let i = 0; i < 8; i++) expect(await wrongSignature(h, '198.51.100.4')).toBe(401);
    expect(await wrongSignature(h, '198.51.100.4')).toBe(429);
    expect(await wrongSecret(h, '198.51.100.4')).toBe(429);
  });

  it('when the token endpoint refuses a client, then /metrics counts it as interface="oauth" by reason, throttled refusals too', async () => {
    const before = await authFailures(h);
    expect(await wrongSecret(h, '192.0.2.50')).toBe(401);
    const unknown = await requestToken(h.url, { clientId: 'no-such-client', clientSecret: 'x', headers: { 'x-forwarded-for': '192.0.2.50' } });
    expect(unknown.status).toBe(401);
    expect(await wrongSecret(h, '2001:db8:aa:bb::1')).toBe(429);
    const after = await authFailures(h);
    const delta = (k: string) => (after.get(k) ?? 0) - (before.get(k) ?? 0);
    expect([delta('oauth/bad_secret'), delta('oauth/unknown_key'), delta('oauth/throttled')]).toEqual([1, 1, 1]);
    expect(delta('rest/bad_signature')).toBe(0);
  });
});
