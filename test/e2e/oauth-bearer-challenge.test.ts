import { CamaraHarness, CamaraReply as Reply, startCamaraHarness } from '../support/camara-harness';

/*
 * RFC 6750 §3 on every CAMARA route: a 401 carries a `WWW-Authenticate: Bearer` challenge, with
 * `error="invalid_token"` only when a token was sent (§3.1); a 403 for a missing scope carries
 * `error="insufficient_scope"` and the scopes that would do. Generic OAuth clients read these
 * headers, not CAMARA's ErrorInfo, to decide whether to fetch a new token or ask for more scope.
 */

const CHECK = '/sim-swap/v2/check';
const TENURE = '/kyc-tenure/v0.2/check-tenure';
const SUBS = '/sim-swap-subscriptions/v0.3/subscriptions';
const BODY = { phoneNumber: '+255712000001' };

function challenge(r: Reply): string | null {
  return r.headers.get('www-authenticate');
}

describe('CAMARA routes: RFC 6750 Bearer challenges', () => {
  let c: CamaraHarness;
  beforeAll(async () => { c = await startCamaraHarness(); });
  afterAll(() => c?.close());

  it('when no token is sent, then every CAMARA route answers 401 with a bare Bearer challenge (no error code)', async () => {
    for (const [path, method] of [[CHECK, 'POST'], [TENURE, 'POST'], [SUBS, 'GET']] as const) {
      const r = await c.call(path, method === 'POST' ? BODY : undefined, { token: null, method });
      expect([path, r.status]).toEqual([path, 401]);
      expect(challenge(r)).toBe('Bearer realm="verify-customer"');
    }
  });

  it('when another authentication scheme is sent, then the challenge carries no error code either', async () => {
    const r = await c.call(CHECK, BODY, { authorization: 'Basic ZGVtby1rZXk6ZGVtby1zZWNyZXQ=' });
    expect(r.status).toBe(401);
    expect(challenge(r)).toBe('Bearer realm="verify-customer"');
  });

  it('when the token is expired or garbage, then every CAMARA route answers 401 with error="invalid_token" and a description', async () => {
    const expired = await c.tokens.expired();
    for (const [path, method] of [[CHECK, 'POST'], [TENURE, 'POST'], [SUBS, 'GET']] as const) {
      for (const token of [expired, 'not.a.token']) {
        const r = await c.call(path, method === 'POST' ? BODY : undefined, { token, method });
        expect([path, r.status]).toEqual([path, 401]);
        expect(challenge(r)).toMatch(/^Bearer realm="verify-customer", error="invalid_token", error_description="[^"\\]+"$/);
      }
    }
    const r = await c.call(CHECK, BODY, { token: expired });
    expect(challenge(r)).toContain('error_description="access token expired"');
  });

  it('when the token lacks the operation\'s scope, then 403 carries error="insufficient_scope" and the scopes that would do', async () => {
    const kycOnly = await c.tokens.twoLegged({ scope: 'kyc-tenure:check-tenure' });
    const check = await c.call(CHECK, BODY, { token: kycOnly });
    expect(check.status).toBe(403);
    expect(challenge(check)).toMatch(/^Bearer realm="verify-customer", error="insufficient_scope", error_description="[^"]+", scope="sim-swap:check sim-swap"$/);

    const simOnly = await c.tokens.twoLegged({ scope: 'sim-swap:check' });
    const tenure = await c.call(TENURE, { ...BODY, tenureDate: '2020-01-01' }, { token: simOnly });
    expect(tenure.status).toBe(403);
    expect(challenge(tenure)).toContain('scope="kyc-tenure:check-tenure"');

    const subs = await c.call(SUBS, undefined, { token: simOnly, method: 'GET' });
    expect(subs.status).toBe(403);
    expect(challenge(subs)).toMatch(/error="insufficient_scope".*scope="sim-swap-subscriptions:read"$/);
  });

  it('when the request succeeds or fails for another reason, then no challenge is sent', async () => {
    expect(challenge(await c.call(CHECK, BODY))).toBeNull();
    const bad = await c.call(CHECK, { phoneNumber: 'nope' });
    expect(bad.status).toBe(400);
    expect(challenge(bad)).toBeNull();
  });
});
