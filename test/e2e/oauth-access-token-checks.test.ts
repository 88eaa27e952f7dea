import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, importJWK } from 'jose';
import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { Harness, startHarness } from '../support/harness';
import { TestIssuer, generateSigningJwk, startTestIssuer, writeSigningKeyFile } from '../support/oauth';

/*
 * RFC 9068 checks on access tokens, over the CAMARA routes: `iat` not in the future, `typ`
 * saying "access token" (never an ID token), and an external JWKS read within a size cap.
 */

const CHECK = '/sim-swap/v2/check';
const BODY = { phoneNumber: '+255712000001' };
const nowS = () => Math.floor(Date.now() / 1000);
const claims = (extra: Record<string, unknown> = {}) => ({ client_id: 'demo-key', scope: 'sim-swap', ...extra });

async function status(c: CamaraHarness, token: string): Promise<number> {
  return (await c.call(CHECK, BODY, { token })).status;
}

describe('access tokens: iat and typ (RFC 9068), strict default', () => {
  let c: CamaraHarness;
  beforeAll(async () => { c = await startCamaraHarness(); });
  afterAll(() => c?.close());

  it('when iat is an hour or a year ahead, then 401; within the clock tolerance, then 200', async () => {
    const idp = c.tokens.issuer;
    expect(await status(c, await idp.mint(claims({ iat: nowS() + 3600, exp: nowS() + 7200 })))).toBe(401);
    expect(await status(c, await idp.mint(claims({ iat: nowS() + 365 * 86400, exp: nowS() + 366 * 86400 })))).toBe(401);
    const r = await c.call(CHECK, BODY, { token: await idp.mint(claims({ iat: nowS() + 3600, exp: nowS() + 7200 })) });
    expect((r.body as { message?: string }).message).toBe('access token issued in the future');
    expect(await status(c, await idp.mint(claims({ iat: nowS() + 10 })))).toBe(200);
  });

  it('when iat is missing, then 401 (RFC 9068 §2.2 requires it)', async () => {
    expect(await status(c, await c.tokens.issuer.mint(claims({ iat: undefined })))).toBe(401);
  });

  it('when an external token is typed JWT, id_token-like or untyped, then 401; at+jwt in either spelling, then 200', async () => {
    const idp = c.tokens.issuer;
    for (const typ of ['JWT', 'id_token', 'jwt', undefined]) {
      const r = await c.call(CHECK, BODY, { token: await idp.mint(claims(), { header: { typ } }) });
      expect([typ, r.status, (r.body as { message?: string }).message]).toEqual([typ, 401, 'access token type not accepted']);
    }
    for (const typ of ['at+jwt', 'application/at+jwt', 'AT+JWT']) expect([typ, await status(c, await idp.mint(claims(), { header: { typ } }))]).toEqual([typ, 200]);
  });

  it('when an at+jwt token carries a nonce (an ID token\'s marker), then 401', async () => {
    expect(await status(c, await c.tokens.issuer.mint(claims({ nonce: 'n-0S6_WzA2Mj' })))).toBe(401);
  });
});

describe('access tokens: OAUTH_REQUIRE_AT_JWT_TYP=false', () => {
  let c: CamaraHarness;
  let keyFileDir: string;
  const builtinKey = generateSigningJwk('ES256', 'builtin-1');
  beforeAll(async () => {
    keyFileDir = mkdtempSync(join(tmpdir(), 'vc-typ-'));
    writeSigningKeyFile(join(keyFileDir, 'keys.json'), [await builtinKey]);
    c = await startCamaraHarness({ env: { OAUTH_REQUIRE_AT_JWT_TYP: 'false', OAUTH_SIGNING_KEY_FILE: join(keyFileDir, 'keys.json') } });
  });
  afterAll(() => c?.close());

  it('when an external token is typed JWT or untyped, then 200; any other typ or a nonce, then 401', async () => {
    const idp = c.tokens.issuer;
    for (const typ of ['JWT', undefined, 'at+jwt']) expect([typ, await status(c, await idp.mint(claims(), { header: { typ } }))]).toEqual([typ, 200]);
    for (const typ of ['id_token', 'dpop+jwt', 'secevent+jwt']) expect([typ, await status(c, await idp.mint(claims(), { header: { typ } }))]).toEqual([typ, 401]);
    expect(await status(c, await idp.mint(claims({ nonce: 'abc' }), { header: { typ: 'JWT' } }))).toBe(401);
  });

  it('when a token signed with the built-in key is typed JWT, then 401 still: the built-in issuer always requires at+jwt', async () => {
    // The built-in tokens' aud is OAUTH_AUDIENCE, which the harness sets for the external issuer.
    const key = await importJWK(await builtinKey, 'ES256');
    // credential_id: the built-in issuer's tokens name the client secret they were obtained with (the demo's one secret).
    const signed = (typ: string) => new SignJWT(claims({ credential_id: 'primary' })).setProtectedHeader({ alg: 'ES256', kid: 'builtin-1', typ })
      .setIssuer(c.url).setAudience(c.tokens.issuer.audience).setIssuedAt().setExpirationTime('5m').sign(key);
    expect(await status(c, await signed('JWT'))).toBe(401);
    expect(await status(c, await signed('at+jwt'))).toBe(200);
  });

  it('when a built-in token names no valid client secret (credential_id absent or unknown), then 401: revocation must be able to end it', async () => {
    const key = await importJWK(await builtinKey, 'ES256');
    const signed = (extra: Record<string, unknown>) => new SignJWT(claims(extra)).setProtectedHeader({ alg: 'ES256', kid: 'builtin-1', typ: 'at+jwt' })
      .setIssuer(c.url).setAudience(c.tokens.issuer.audience).setIssuedAt().setExpirationTime('5m').sign(key);
    expect(await status(c, await signed({}))).toBe(401);
    expect(await status(c, await signed({ credential_id: 'sec_gone' }))).toBe(401);
    expect(await status(c, await signed({ credential_id: 'primary' }))).toBe(200);
  });
});

/** A JWKS endpoint that streams `totalBytes` of one huge, valid-looking key set, honouring backpressure; counts what it sent. */
async function startHugeJwks(totalBytes: number, declareLength: boolean): Promise<{ url: string; sent: () => number; done: Promise<void>; close(): Promise<void> }> {
  let sent = 0;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => { finished = resolve; });
  const chunk = Buffer.from(`{"kty":"oct","k":"${'A'.repeat(1000)}"},`);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...(declareLength ? { 'content-length': String(totalBytes) } : {}) });
    res.on('close', finished);
    const pump = () => {
      while (sent < totalBytes && !res.destroyed) {
        const ok = res.write(chunk);
        sent += chunk.length;
        if (!ok) { res.once('drain', pump); return; }
      }
      if (!res.destroyed) res.end(']}');
    };
    res.write('{"keys":[');
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`,
    sent: () => sent,
    done,
    close: async () => { server.closeAllConnections(); await new Promise<void>((r) => server.close(() => r())); },
  };
}

describe('external JWKS: the response size is capped', () => {
  const SIXTY_MB = 60 * 1024 * 1024;
  let idp: TestIssuer;
  let h: Harness | undefined;
  beforeEach(async () => { idp = await startTestIssuer(); });
  afterEach(async () => { await h?.close(); h = undefined; await idp.close(); });

  it.each([['streamed without a length', false], ['with a declared Content-Length', true]] as const)(
    'when the IdP sends a 60 MB JWKS %s, then the token is refused 401, the download is cut near 1 MiB and the RSS stays bounded',
    async (_name, declareLength) => {
      const huge = await startHugeJwks(SIXTY_MB, declareLength);
      try {
        global.gc?.();
        const rssBefore = process.memoryUsage().rss;
        h = await startHarness({ env: { ...idp.env, OAUTH_JWKS_URL: huge.url, OAUTH_JWKS_TIMEOUT_MS: '20000', OAUTH_JWKS_COOLDOWN_S: '0' } });
        const token = await idp.mint(claims());
        const r = await fetch(`${h.url}${CHECK}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(BODY) });
        expect(r.status).toBe(401);
        expect(((await r.json()) as { message?: string }).message).toBe('access token issuer keys unavailable');
        await huge.done; // the service closed the connection
        // What the IdP wrote includes what loopback socket buffers took before the cut (a few MB).
        expect(huge.sent()).toBeLessThan(16 * 1024 * 1024);
        expect(process.memoryUsage().rss - rssBefore).toBeLessThan(150 * 1024 * 1024);
      } finally {
        await huge.close();
      }
    }, 60_000);
});
