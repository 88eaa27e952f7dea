import { generateKeyPairSync, sign as sign_, verify } from 'node:crypto';
import { UnauthenticatedError } from '../../src/domain/errors';
import { AccessGrant, AccessTokenVerifier } from '../../src/domain/ports/access-tokens';
import { ServerOptions } from '../../src/server';
import { Harness } from './harness';

/*
 * TEMPORARY until the OAuth branch lands: a stand-in issuer/verifier so the CAMARA suites can
 * be written against the TokenSource interface. Replaced by the real built-in issuer and
 * external-issuer verification (test/support/oauth.ts) before this branch is handed over.
 */

export interface TokenClaims {
  clientId?: string;
  scope?: string;
  /** Three-legged: `tel:+<E.164>`. */
  sub?: string;
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
}

export interface TokenSource {
  env: Record<string, string>;
  serverOptions: ServerOptions;
  attach(h: Harness): void;
  twoLegged(claims?: TokenClaims): Promise<string>;
  threeLegged(phoneNumber: string, claims?: TokenClaims): Promise<string>;
  expired(claims?: TokenClaims): Promise<string>;
  close(): Promise<void>;
}

export async function startTokenSource(): Promise<TokenSource> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  let harness: Harness | undefined;
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const verifier: AccessTokenVerifier = {
    verify(token: string): Promise<AccessGrant> {
      const bad = () => Promise.reject(new UnauthenticatedError('invalid access token'));
      const [h, p, sig] = token.split('.');
      if (!h || !p || !sig) return bad();
      let payload: Record<string, unknown>;
      try {
        const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string };
        if (header.alg !== 'ES256') return bad();
        if (!verify('sha256', Buffer.from(`${h}.${p}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url'))) return bad();
        payload = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
      } catch {
        return bad();
      }
      if (typeof payload.exp !== 'number' || payload.exp * 1000 < Date.now()) return bad();
      const partner = harness?.server.partners.find(String(payload.client_id));
      if (!partner?.enabled) return bad();
      const grant: AccessGrant = { partner, scopes: new Set((typeof payload.scope === 'string' ? payload.scope : '').split(' ').filter(Boolean)) };
      if (typeof payload.sub === 'string' && payload.sub.startsWith('tel:')) grant.phoneNumber = payload.sub.slice(4);
      return Promise.resolve(grant);
    },
  };
  const sign = (c: TokenClaims) => {
    const claims: Record<string, unknown> = {
      iss: 'test-issuer', client_id: c.clientId ?? 'demo-key', scope: c.scope ?? 'sim-swap kyc-tenure:check-tenure',
      exp: Math.floor(Date.now() / 1000) + (c.expiresIn ?? 600),
    };
    if (c.sub) claims.sub = c.sub;
    const input = `${b64({ alg: 'ES256', typ: 'JWT' })}.${b64(claims)}`;
    const sig = sign_('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
    return Promise.resolve(`${input}.${sig}`);
  };
  return {
    env: {},
    serverOptions: { accessTokens: verifier },
    attach: (h) => { harness = h; },
    twoLegged: (c = {}) => sign(c),
    threeLegged: (phone, c = {}) => sign({ ...c, sub: `tel:${phone}` }),
    expired: (c = {}) => sign({ ...c, expiresIn: -60 }),
    close: () => Promise.resolve(),
  };
}
