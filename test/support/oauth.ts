import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { JWK, JWTPayload, SignJWT, UnsecuredJWT, calculateJwkThumbprint, importJWK } from 'jose';

/**
 * OAuth test support (CONTRACT §7): tokens from the service's own /oauth2/token over real HTTP,
 * and a test "external issuer" (a real JWKS server on port 0 plus a signer) that mints tokens
 * with any claims, so tests exercise the service's real verification path.
 */

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  scope?: string;
}

/** A token endpoint answer: success (RFC 6749 §5.1) or error (§5.2) fields; undefined when not JSON. */
export interface TokenBody {
  access_token?: string;
  token_type?: string;
  expires_in?: number;
  scope?: string;
  error?: string;
  error_description?: string;
}

export interface TokenReply {
  status: number;
  headers: Headers;
  body: TokenBody;
  text: string;
}

export interface TokenRequest {
  clientId?: string;
  clientSecret?: string;
  scope?: string;
  /** Default client_credentials; null leaves it out. */
  grantType?: string | null;
  /** Client authentication: HTTP Basic (default) or client_id/client_secret form fields. */
  via?: 'basic' | 'form';
  /** A raw body instead of the form built from the fields above. */
  body?: string;
  contentType?: string | null;
  headers?: Record<string, string>;
  method?: string;
}

/** `Authorization: Basic` as RFC 6749 §2.3.1 wants it (id and secret form-urlencoded first). */
export function basicAuth(clientId: string, clientSecret: string): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${enc(clientId)}:${enc(clientSecret)}`).toString('base64')}`;
}

/** One request to POST {baseUrl}/oauth2/token; the reply as it came. */
export async function requestToken(baseUrl: string, req: TokenRequest = {}): Promise<TokenReply> {
  const headers: Record<string, string> = { ...req.headers };
  if (req.contentType !== null) headers['content-type'] = req.contentType ?? 'application/x-www-form-urlencoded';
  const form = new URLSearchParams();
  if (req.grantType !== null) form.set('grant_type', req.grantType ?? 'client_credentials');
  if (req.scope !== undefined) form.set('scope', req.scope);
  if (req.clientId !== undefined && req.clientSecret !== undefined) {
    if (req.via === 'form') {
      form.set('client_id', req.clientId);
      form.set('client_secret', req.clientSecret);
    } else {
      headers.authorization = basicAuth(req.clientId, req.clientSecret);
    }
  }
  const method = req.method ?? 'POST';
  const res = await fetch(`${baseUrl}/oauth2/token`, {
    method, headers, ...(method === 'GET' || method === 'HEAD' ? {} : { body: req.body ?? form.toString() }),
  });
  const text = await res.text();
  let body: TokenBody = {};
  try { body = JSON.parse(text) as TokenBody; } catch { /* not JSON: tests assert on text */ }
  return { status: res.status, headers: res.headers, body, text };
}

/** An access token from the service's built-in issuer; throws with the reply when it is refused. */
export async function fetchToken(baseUrl: string, creds: ClientCredentials): Promise<string> {
  const reply = await requestToken(baseUrl, creds);
  const token = reply.body.access_token;
  if (reply.status !== 200 || typeof token !== 'string') throw new Error(`token request refused: ${reply.status} ${reply.text}`);
  return token;
}

export type TestAlg = 'ES256' | 'RS256';

/** A private signing JWK (with kid and alg) for key files and test issuers. */
export async function generateSigningJwk(alg: TestAlg = 'ES256', kid?: string): Promise<JWK> {
  const { privateKey } = alg === 'ES256'
    ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
    : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  return { ...jwk, alg, kid: kid ?? await calculateJwkThumbprint(jwk) };
}

/** The public half of a private JWK. */
export function publicJwk(jwk: JWK): JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = jwk;
  return { ...pub, use: 'sig' };
}

/** Writes an OAUTH_SIGNING_KEY_FILE: a JWKS whose first key signs and whose others verify. */
export function writeSigningKeyFile(path: string, keys: JWK[]): void {
  writeFileSync(path, JSON.stringify({ keys }), { mode: 0o600 });
}

export interface MintOptions {
  /** ES256 (default) / RS256 with the issuer's key; `none` unsigned; `HS256` keyed with the issuer's public key (the classic confusion attack). */
  alg?: TestAlg | 'none' | 'HS256';
  /** Header kid; default the signing key's. null: no kid. */
  kid?: string | null;
  /** Sign with this private JWK instead of the issuer's current key (e.g. a key it does not publish). */
  key?: JWK;
  /** Extra or overriding header parameters. */
  header?: Record<string, unknown>;
}

export interface TestIssuer {
  /** The `iss` its tokens carry by default. */
  issuer: string;
  audience: string;
  jwksUrl: string;
  /** The settings that make the service trust this issuer. */
  env: Record<string, string>;
  /** The kid of the key it signs with now. */
  kid(): string;
  /**
   * A token with these claims over defaults (iss, aud, iat, exp = now + 300 s); set a claim to
   * undefined to leave it out. Pass `sub: 'tel:+255712000001'` for a three-legged token.
   */
  mint(claims: JWTPayload, opts?: MintOptions): Promise<string>;
  /** The private JWK it signs with now (for a tool that mints its own tokens, e.g. the conformance kit). */
  signingJwk(): JWK;
  /** Adds a new signing key (published at once); the old ones stay published unless dropOld. */
  rotate(opts?: { alg?: TestAlg; dropOld?: boolean }): Promise<string>;
  /** JWKS requests served so far. */
  fetches(): number;
  /** Makes the JWKS endpoint answer 503 (down) or wait (slow) before answering. */
  setFault(fault: { down?: boolean; delayMs?: number }): void;
  close(): Promise<void>;
}

/** A trusted "external issuer" for tests: a real HTTP server serving its JWKS on port 0. */
export async function startTestIssuer(opts: { alg?: TestAlg; audience?: string } = {}): Promise<TestIssuer> {
  const keys: JWK[] = [await generateSigningJwk(opts.alg ?? 'ES256')];
  let fetches = 0;
  let fault: { down?: boolean; delayMs?: number } = {};
  const pending = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    if (req.url !== '/jwks.json') {
      res.writeHead(404).end();
      return;
    }
    fetches += 1;
    const answer = () => {
      if (fault.down) {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('down');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: keys.map(publicJwk) }));
    };
    if (fault.delayMs) {
      const t = setTimeout(() => { pending.delete(t); answer(); }, fault.delayMs);
      pending.add(t);
    } else {
      answer();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${base}/issuer`;
  const audience = opts.audience ?? 'verify-customer-test';
  const current = (): JWK => keys[keys.length - 1];

  return {
    issuer, audience,
    jwksUrl: `${base}/jwks.json`,
    env: { OAUTH_ISSUER: issuer, OAUTH_JWKS_URL: `${base}/jwks.json`, OAUTH_AUDIENCE: audience },
    kid: () => current().kid as string,
    signingJwk: () => ({ ...current() }),
    fetches: () => fetches,
    setFault: (f) => { fault = f; },
    async rotate(r = {}) {
      const next = await generateSigningJwk(r.alg ?? (current().alg as TestAlg));
      if (r.dropOld) keys.splice(0, keys.length);
      keys.push(next);
      return next.kid as string;
    },
    async mint(claims, m = {}) {
      const now = Math.floor(Date.now() / 1000);
      const payload: JWTPayload = { iss: issuer, aud: audience, iat: now, exp: now + 300, ...claims };
      for (const k of Object.keys(payload)) if (payload[k] === undefined) delete payload[k];
      const signer = m.key ?? current();
      const alg = m.alg ?? (signer.alg as TestAlg);
      const kid = m.kid === null ? undefined : (m.kid ?? signer.kid);
      if (alg === 'none') return new UnsecuredJWT(payload).encode();
      // RFC 9068's access token type by default, as the service requires; `header` may override or drop it (typ: undefined).
      const header = { alg, typ: 'at+jwt', ...(kid !== undefined ? { kid } : {}), ...m.header };
      for (const k of Object.keys(header)) if ((header as Record<string, unknown>)[k] === undefined) delete (header as Record<string, unknown>)[k];
      if (alg === 'HS256') {
        // The attack: the verifier's public key, as text, used as an HMAC secret.
        const secret = new TextEncoder().encode(JSON.stringify(publicJwk(signer)));
        return new SignJWT(payload).setProtectedHeader(header).sign(secret);
      }
      const key = await importJWK(signer, alg);
      return new SignJWT(payload).setProtectedHeader(header).sign(key);
    },
    close: async () => {
      for (const t of pending) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
