import * as client from 'openid-client';
import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { startHarness } from '../support/harness';
import { startTestIssuer } from '../support/oauth';
import { DEMO } from '../support/signing';

/*
 * OpenID Connect discovery, as an OIDC-first client does it: every CAMARA spec declares an
 * `openIdConnect` scheme whose URL is /.well-known/openid-configuration. The real openid-client
 * package discovers the issuer there, takes a client_credentials token from the endpoint it
 * names, and the token works on a CAMARA route. (openid-client refuses plain-http issuers
 * unless allowInsecureRequests is passed: the test server is http on 127.0.0.1.)
 */

describe('OpenID Connect discovery with a real OIDC client (openid-client)', () => {
  let c: CamaraHarness;
  beforeAll(async () => { c = await startCamaraHarness(); });
  afterAll(() => c?.close());

  it('when a client discovers via /.well-known/openid-configuration, then it gets a client_credentials token the CAMARA routes accept', async () => {
    const config = await client.discovery(new URL(c.url), DEMO.apiKey, undefined, client.ClientSecretBasic(DEMO.secret), {
      execute: [client.allowInsecureRequests],
    });
    const meta = config.serverMetadata();
    expect(meta.issuer).toBe(c.url);
    expect(meta.token_endpoint).toBe(`${c.url}/oauth2/token`);
    expect(meta.jwks_uri).toBe(`${c.url}/.well-known/jwks.json`);

    const tokens = await client.clientCredentialsGrant(config, { scope: 'sim-swap:check' });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.scope).toBe('sim-swap:check');

    const r = await c.call('/sim-swap/v2/check', { phoneNumber: '+255712000001' }, { token: tokens.access_token });
    expect([r.status, r.body]).toEqual([200, { swapped: false }]);
  });

  it('when the client authenticates with client_secret_post and a wrong secret, then openid-client raises invalid_client', async () => {
    const config = await client.discovery(new URL(c.url), DEMO.apiKey, undefined, client.ClientSecretPost('wrong-secret'), { execute: [client.allowInsecureRequests] });
    const err = await client.clientCredentialsGrant(config, { scope: 'sim-swap:check' }).then(() => undefined, (e: unknown) => e);
    // A Basic challenge answered to client_secret_post made it a WWWAuthenticateChallengeError instead.
    expect(err).toBeInstanceOf(client.ResponseBodyError);
    expect(err).toMatchObject({ error: 'invalid_client', status: 401 });
  });

  it('when the client authenticates with client_secret_basic and a wrong secret, then the Basic challenge RFC 6749 §5.2 requires reaches it', async () => {
    const config = await client.discovery(new URL(c.url), DEMO.apiKey, undefined, client.ClientSecretBasic('wrong-secret'), { execute: [client.allowInsecureRequests] });
    const err = await client.clientCredentialsGrant(config, { scope: 'sim-swap:check' }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(client.WWWAuthenticateChallengeError);
    expect(err).toMatchObject({ status: 401, cause: [expect.objectContaining({ scheme: 'basic' })] });
  });

  it('when both discovery documents are fetched, then they are the same document, with the grants, auth methods and signing algorithms', async () => {
    const oidc = await (await fetch(`${c.url}/.well-known/openid-configuration`)).json() as Record<string, unknown>;
    const rfc8414 = await (await fetch(`${c.url}/.well-known/oauth-authorization-server`)).json() as Record<string, unknown>;
    expect(oidc).toEqual(rfc8414);
    expect(oidc).toMatchObject({
      issuer: c.url,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
    });
  });
});

describe('discovery without the built-in issuer', () => {
  it('when OAUTH_BUILTIN=false, then the token endpoint and all three well-known documents answer 404', async () => {
    const idp = await startTestIssuer();
    const h = await startHarness({ env: { ...idp.env, OAUTH_BUILTIN: 'false' } });
    try {
      for (const path of ['/oauth2/token', '/.well-known/jwks.json', '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
        expect([path, (await fetch(`${h.url}${path}`)).status]).toEqual([path, 404]);
      }
    } finally {
      await h.close();
      await idp.close();
    }
  });
});
