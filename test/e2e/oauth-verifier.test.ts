import { SignJWT, UnsecuredJWT } from 'jose';
import { UnauthenticatedError } from '../../src/errors/domain-errors';
import { Harness, startHarness } from '../support/harness';
import { TestIssuer, fetchToken, generateSigningJwk, startTestIssuer } from '../support/oauth';
import { DEMO, DEMO_DISABLED, DEMO_KYC_ONLY } from '../support/signing';

/** The AccessTokenVerifier the CAMARA routes get, exercised with real tokens from both issuers. */
describe('access token verification', () => {
  let idp: TestIssuer;
  let h: Harness;
  beforeAll(async () => {
    idp = await startTestIssuer();
    h = await startHarness({ env: { ...idp.env, OAUTH_CLOCK_TOLERANCE_S: '5', OAUTH_JWKS_COOLDOWN_S: '0' } });
  });
  afterAll(async () => {
    await h.close();
    await idp.close();
  });

  const verify = (token: string) => h.server.accessTokens.verify(token);
  const rejects = async (token: string, reason: RegExp) => {
    const err = await verify(token).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthenticatedError);
    expect((err as UnauthenticatedError).httpStatus).toBe(401);
    expect((err as UnauthenticatedError).reason).toMatch(reason);
  };

  describe('external issuer', () => {
    it('when the token is two-legged, then it is granted: partner by client_id, scopes, no phone number', async () => {
      const grant = await verify(await idp.mint({ client_id: DEMO.apiKey, sub: 'some-app', scope: 'sim-swap:check kyc-tenure:check-tenure' }));
      expect(grant.partner.name).toBe('demo-bank');
      expect([...grant.scopes].sort()).toEqual(['kyc-tenure:check-tenure', 'sim-swap:check']);
      expect(grant.phoneNumber).toBeUndefined();
      expect(grant.purpose).toBeUndefined();
    });

    it('when the token is three-legged, then sub tel:+E.164 is the phone number and purpose is kept', async () => {
      const grant = await verify(await idp.mint({
        client_id: DEMO.apiKey, sub: 'tel:+255712000001', scope: 'sim-swap', purpose: 'dpv:FraudPreventionAndDetection#sim-swap',
      }));
      expect(grant.phoneNumber).toBe('+255712000001');
      expect(grant.purpose).toBe('dpv:FraudPreventionAndDetection#sim-swap');
    });

    it('when the keys are RS256, then they are accepted as well', async () => {
      const rsa = await startTestIssuer({ alg: 'RS256' });
      const other = await startHarness({ env: rsa.env });
      try {
        const grant = await other.server.accessTokens.verify(await rsa.mint({ client_id: DEMO.apiKey, scope: 'sim-swap' }));
        expect([...grant.scopes]).toEqual(['sim-swap']);
      } finally {
        await other.close();
        await rsa.close();
      }
    });

    it("when scopes are beyond the partner's operations, then they are dropped", async () => {
      const grant = await verify(await idp.mint({ client_id: DEMO_KYC_ONLY.apiKey, scope: 'sim-swap kyc-tenure:check-tenure openid' }));
      expect([...grant.scopes]).toEqual(['kyc-tenure:check-tenure']);
    });

    const now = () => Math.floor(Date.now() / 1000);
    const bad: Array<[string, () => Promise<string>, RegExp]> = [
      ['alg none', () => idp.mint({ client_id: DEMO.apiKey }, { alg: 'none' }), /algorithm|malformed/],
      ['HS256 keyed with the public key', () => idp.mint({ client_id: DEMO.apiKey }, { alg: 'HS256' }), /algorithm/],
      ['ES256 header on an RS256-only kid', async () => {
        const rsa = await generateSigningJwk('RS256', idp.kid());
        return idp.mint({ client_id: DEMO.apiKey }, { key: rsa, alg: 'RS256' });
      }, /key unknown|algorithm/],
      ['expired', () => idp.mint({ client_id: DEMO.apiKey, iat: now() - 600, exp: now() - 60 }), /expired/],
      ['not yet valid', () => idp.mint({ client_id: DEMO.apiKey, nbf: now() + 600 }), /not yet valid/],
      ['no exp', () => idp.mint({ client_id: DEMO.apiKey, exp: undefined }), /claims invalid|exp/],
      ['wrong iss', () => idp.mint({ client_id: DEMO.apiKey, iss: 'https://evil.example' }), /issuer not trusted/],
      ['no iss', () => idp.mint({ client_id: DEMO.apiKey, iss: undefined }), /issuer not trusted/],
      ['wrong aud', () => idp.mint({ client_id: DEMO.apiKey, aud: 'someone-else' }), /audience/],
      ['signed by a key the issuer does not publish', async () => idp.mint({ client_id: DEMO.apiKey }, { key: await generateSigningJwk('ES256', idp.kid()) }), /signature invalid/],
      ['unknown kid', async () => idp.mint({ client_id: DEMO.apiKey }, { key: await generateSigningJwk('ES256', 'nobody-knows-me') }), /key unknown/],
      ['tampered payload', async () => {
        const [head, , sig] = (await idp.mint({ client_id: DEMO_KYC_ONLY.apiKey, scope: 'kyc-tenure:check-tenure' })).split('.');
        const forged = Buffer.from(JSON.stringify({ iss: idp.issuer, aud: idp.audience, exp: now() + 300, client_id: DEMO.apiKey, scope: 'sim-swap' })).toString('base64url');
        return `${head}.${forged}.${sig}`;
      }, /signature invalid/],
      ['no client_id', () => idp.mint({ scope: 'sim-swap' }), /client_id/],
      ['unknown client_id', () => idp.mint({ client_id: 'nobody' }), /client unknown or disabled/],
      ['disabled partner', () => idp.mint({ client_id: DEMO_DISABLED.apiKey }), /client unknown or disabled/],
      ['scope not a string', () => idp.mint({ client_id: DEMO.apiKey, scope: ['sim-swap'] }), /scope malformed/],
      ['sub tel: but not E.164', () => idp.mint({ client_id: DEMO.apiKey, sub: 'tel:0712000001' }), /tel:\+E\.164/],
      ['purpose not a string', () => idp.mint({ client_id: DEMO.apiKey, purpose: 42 }), /purpose malformed/],
      ['not a JWT', async () => 'not-a-jwt', /malformed/],
      ['empty', async () => '', /missing/],
      ['three dots of garbage', async () => 'a.b.c', /malformed/],
      ['oversized', async () => `${'a'.repeat(9000)}.b.c`, /malformed/],
    ];
    it.each(bad)('when the token is %s, then 401', async (_name, make, reason) => {
      await rejects(await make(), reason);
    });

    it('when the kid is unknown, then the JWKS is refetched once and tokens of the new key accepted', async () => {
      const before = idp.fetches();
      const kid = await idp.rotate();
      const grant = await verify(await idp.mint({ client_id: DEMO.apiKey, scope: 'sim-swap' }));
      expect(grant.partner.apiKey).toBe(DEMO.apiKey);
      expect(idp.fetches()).toBe(before + 1);
      expect(idp.kid()).toBe(kid);
    });
  });

  describe('built-in issuer', () => {
    it('when a built-in-looking token is signed by another key, then it is rejected', async () => {
      const stranger = await generateSigningJwk('ES256');
      const token = await idp.mint({ iss: h.server.oauthIssuer, aud: h.server.oauthIssuer, client_id: DEMO.apiKey }, { key: stranger, header: { typ: 'at+jwt' } });
      await rejects(token, /key unknown|signature/);
    });

    it("when a built-in token's partner was disabled since, then it is rejected", async () => {
      const token = await fetchToken(h.url, { clientId: DEMO.apiKey, clientSecret: DEMO.secret });
      await expect(verify(token)).resolves.toBeDefined();
      const partner = h.server.partners.find(DEMO.apiKey)!;
      partner.enabled = false;
      try {
        await rejects(token, /client unknown or disabled/);
      } finally {
        partner.enabled = true;
      }
    });

    it('when the token is alg none or HS256 keyed with the published public key, then it is rejected', async () => {
      const iss = h.server.oauthIssuer!;
      const payload = { iss, aud: iss, client_id: DEMO.apiKey, scope: 'sim-swap', exp: Math.floor(Date.now() / 1000) + 300 };
      await rejects(new UnsecuredJWT(payload).encode(), /algorithm|malformed/);
      const { keys } = await (await fetch(`${h.url}/.well-known/jwks.json`)).json() as { keys: Array<{ kid: string }> };
      const published = keys[0];
      for (const secret of [JSON.stringify(published), JSON.stringify({ keys })]) {
        const hs = await new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid: published.kid, typ: 'at+jwt' }).sign(new TextEncoder().encode(secret));
        await rejects(hs, /algorithm/);
      }
    });

    it('when an external token is carried under the built-in issuer, then it is rejected', async () => {
      await rejects(await idp.mint({ iss: h.server.oauthIssuer, client_id: DEMO.apiKey }), /key unknown|type|audience/);
    });
  });
});
