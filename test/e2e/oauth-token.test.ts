import { decodeJwt, decodeProtectedHeader } from 'jose';
import { Harness, startHarness } from '../support/harness';
import { basicAuth, fetchToken, requestToken } from '../support/oauth';
import { DEMO, DEMO_DISABLED, DEMO_KYC_ONLY } from '../support/signing';

const SIM_SWAP_SCOPES = [
  'sim-swap', 'sim-swap:check', 'sim-swap:retrieve-date',
  'sim-swap-subscriptions:org.camaraproject.sim-swap-subscriptions.v0.swapped:create',
  'sim-swap-subscriptions:read', 'sim-swap-subscriptions:delete',
];
// The demo partner holds every operation: SIM swap, KYC, and the four of CONTRACT §11.
const ALL = [
  ...SIM_SWAP_SCOPES, 'kyc-tenure:check-tenure', 'kyc-match:match', 'device-swap', 'device-swap:check', 'device-swap:retrieve-date',
  'call-forwarding-signal:unconditional-call-forwardings:read', 'call-forwarding-signal:call-forwardings:read', 'number-recycling:check',
  'kyc-age-verification:verify',
];
const anyString: unknown = expect.any(String);

describe('POST /oauth2/token (built-in issuer, client credentials)', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h.close(); });

  const creds = { clientId: DEMO.apiKey, clientSecret: DEMO.secret };

  it('when no scope is asked, then a Bearer token with every scope the partner may hold is issued, not cached', async () => {
    const r = await requestToken(h.url, creds);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(r.body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    expect(r.body.token_type).toBe('Bearer');
    expect(r.body.expires_in).toBe(3600);
    expect(r.body.scope?.split(' ')).toEqual(ALL);
  });

  it('when a token is issued, then it signs iss, aud, sub, client_id, scope, iat, exp, jti and the kid of a published ES256 key', async () => {
    const token = await fetchToken(h.url, creds);
    const header = decodeProtectedHeader(token);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ iss: h.url, aud: h.url, sub: DEMO.apiKey, client_id: DEMO.apiKey, scope: ALL.join(' ') });
    expect(typeof claims.jti).toBe('string');
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(Math.abs(claims.iat! - Date.now() / 1000)).toBeLessThan(5);
    const jwks = await (await fetch(`${h.url}/.well-known/jwks.json`)).json() as { keys: Array<Record<string, unknown>> };
    expect(jwks.keys.map((k) => k.kid)).toContain(header.kid);
  });

  it('when client_id and client_secret are form fields, then they are accepted too', async () => {
    const r = await requestToken(h.url, { ...creds, via: 'form', scope: 'sim-swap:check' });
    expect(r.status).toBe(200);
    expect(r.body.scope).toBe('sim-swap:check');
  });

  it('when a subset is asked, then only that is granted, in the canonical order', async () => {
    const r = await requestToken(h.url, { ...creds, scope: 'kyc-tenure:check-tenure sim-swap' });
    expect(r.status).toBe(200);
    expect(r.body.scope).toBe('sim-swap kyc-tenure:check-tenure');
  });

  it('when the partner is kyc-only, then it gets only the tenure scope', async () => {
    const r = await requestToken(h.url, { clientId: DEMO_KYC_ONLY.apiKey, clientSecret: DEMO_KYC_ONLY.secret });
    expect(r.status).toBe(200);
    expect(r.body.scope).toBe('kyc-tenure:check-tenure');
  });

  it('when the verifier checks an issued token, then it accepts it, with the partner and scopes', async () => {
    const token = await fetchToken(h.url, { ...creds, scope: 'sim-swap:check' });
    const grant = await h.server.accessTokens.verify(token);
    expect(grant.partner.apiKey).toBe(DEMO.apiKey);
    expect([...grant.scopes]).toEqual(['sim-swap:check']);
    expect(grant.phoneNumber).toBeUndefined();
  });

  describe('invalid_client: 401, with a Basic challenge only when the client used Authorization or sent no credentials (RFC 6749 §5.2)', () => {
    const cases: Array<[string, Parameters<typeof requestToken>[1], boolean]> = [
      ['wrong secret (Basic)', { clientId: DEMO.apiKey, clientSecret: 'wrong' }, true],
      ['wrong secret (form)', { clientId: DEMO.apiKey, clientSecret: 'wrong', via: 'form' }, false],
      ['unknown client (Basic)', { clientId: 'no-such-client', clientSecret: 'x' }, true],
      ['unknown client (form)', { clientId: 'no-such-client', clientSecret: 'x', via: 'form' }, false],
      ['disabled partner', { clientId: DEMO_DISABLED.apiKey, clientSecret: DEMO_DISABLED.secret }, true],
      ['disabled partner (form)', { clientId: DEMO_DISABLED.apiKey, clientSecret: DEMO_DISABLED.secret, via: 'form' }, false],
      ['no client authentication', {}, true],
      ['client_id without secret', { body: `grant_type=client_credentials&client_id=${DEMO.apiKey}` }, false],
      ['another Authorization scheme', { headers: { authorization: 'Bearer abc' } }, true],
      ['Basic without a colon', { headers: { authorization: `Basic ${Buffer.from('demo-key').toString('base64')}` } }, true],
    ];
    it.each(cases)('when the client sends %s (%j), then 401 invalid_client; a Basic challenge: %s', async (_name, req, challenged) => {
      const r = await requestToken(h.url, req);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: 'invalid_client', error_description: anyString });
      expect(r.headers.get('www-authenticate')).toEqual(challenged ? expect.stringMatching(/^Basic realm=/) : null);
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.text).not.toContain('demo-secret');
    });
  });

  it('when Basic credentials are form-urlencoded, then they are decoded (RFC 6749 §2.3.1)', async () => {
    const r = await requestToken(h.url, { headers: { authorization: basicAuth(DEMO.apiKey, DEMO.secret) } });
    expect(r.status).toBe(200);
  });

  describe('400 errors', () => {
    const cases: Array<[string, Parameters<typeof requestToken>[1], string]> = [
      ['another grant type', { ...creds, grantType: 'password' }, 'unsupported_grant_type'],
      ['authorization_code', { ...creds, grantType: 'authorization_code' }, 'unsupported_grant_type'],
      ['no grant_type', { ...creds, grantType: null }, 'invalid_request'],
      ['an empty body', { ...creds, body: '' }, 'invalid_request'],
      ['an unknown scope', { ...creds, scope: 'sim-swap openid' }, 'invalid_scope'],
      ['a scope the partner may not hold', { clientId: DEMO_KYC_ONLY.apiKey, clientSecret: DEMO_KYC_ONLY.secret, scope: 'sim-swap' }, 'invalid_scope'],
      ['a malformed scope', { ...creds, scope: 'sim-swap  sim-swap:check' }, 'invalid_scope'],
      ['a JSON body', { ...creds, contentType: 'application/json', body: '{"grant_type":"client_credentials"}' }, 'invalid_request'],
      ['no content type', { ...creds, contentType: null }, 'invalid_request'],
      ['a repeated parameter', { ...creds, body: 'grant_type=client_credentials&grant_type=client_credentials' }, 'invalid_request'],
      ['two client authentication methods', { ...creds, body: `grant_type=client_credentials&client_id=${DEMO.apiKey}&client_secret=${DEMO.secret}` }, 'invalid_request'],
      ['a body over the limit', { ...creds, body: `grant_type=client_credentials&pad=${'x'.repeat(9000)}` }, 'invalid_request'],
      ['a non-UTF-8 charset', { ...creds, contentType: 'application/x-www-form-urlencoded; charset=utf-16' }, 'invalid_request'],
    ];
    it.each(cases)('when the request has %s, then 400 with the error the table gives', async (_name, req, error) => {
      const r = await requestToken(h.url, req);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error, error_description: anyString });
      expect(r.headers.get('cache-control')).toBe('no-store');
    });
  });

  it('when the method is another, then 405 and Allow: POST', async () => {
    const r = await requestToken(h.url, { method: 'GET' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expect(r.body.error).toBe('invalid_request');
  });

  it('when a client has failed too many secrets, then 429 and Retry-After, before the secret is checked', async () => {
    const limited = await startHarness({ env: { AUTH_FAIL_LIMIT: '3' } });
    try {
      for (let i = 0; i < 3; i++) expect((await requestToken(limited.url, { clientId: DEMO.apiKey, clientSecret: 'guess' })).status).toBe(401);
      const r = await requestToken(limited.url, creds);
      expect(r.status).toBe(429);
      expect(r.body.error).toBe('temporarily_unavailable');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe('well-known documents of the built-in issuer', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ env: { PUBLIC_URL: 'https://api.operator.example/' } }); });
  afterAll(async () => { await h.close(); });

  it('when the metadata is asked, then RFC 8414 metadata is published under PUBLIC_URL', async () => {
    const res = await fetch(`${h.url}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      issuer: 'https://api.operator.example',
      token_endpoint: 'https://api.operator.example/oauth2/token',
      jwks_uri: 'https://api.operator.example/.well-known/jwks.json',
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      scopes_supported: ALL,
      response_types_supported: [],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
    });
  });

  it('when the JWKS is asked, then only public keys are published, each with kid, alg and use', async () => {
    const res = await fetch(`${h.url}/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    const { keys } = await res.json() as { keys: Array<Record<string, unknown>> };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toEqual({ kty: 'EC', crv: 'P-256', x: anyString, y: anyString, kid: anyString, alg: 'ES256', use: 'sig' });
  });

  it('when a token is signed, then iss and aud = PUBLIC_URL', async () => {
    const claims = decodeJwt(await fetchToken(h.url, { clientId: DEMO.apiKey, clientSecret: DEMO.secret }));
    expect(claims.iss).toBe('https://api.operator.example');
    expect(claims.aud).toBe('https://api.operator.example');
  });
});
