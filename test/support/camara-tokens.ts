import { Harness } from './harness';
import { TestIssuer, fetchToken, startTestIssuer } from './oauth';

/*
 * Access tokens for the CAMARA suites, through the service's real verification path:
 * two-legged tokens from its built-in issuer (POST /oauth2/token over HTTP), and tokens with
 * arbitrary claims (three-legged `sub`, expired, scopes the token endpoint would refuse)
 * from a trusted external issuer whose JWKS the service fetches (test/support/oauth.ts).
 */

export interface BuiltinTokenRequest {
  clientId?: string;
  clientSecret?: string;
  scope?: string;
}

export interface ExternalClaims {
  clientId?: string;
  scope?: string;
  /** Three-legged: `tel:+<E.164>`. */
  sub?: string;
  /** Seconds from now the token expires; negative for an expired one. */
  expiresIn?: number;
  /** The `purpose` claim, as an external issuer passes it on (any string). */
  purpose?: string;
}

export interface TokenSource {
  /** Settings that make the service trust the external test issuer. */
  env: Record<string, string>;
  attach(h: Harness): void;
  /** From the built-in issuer; default the demo partner, every scope it may hold. */
  twoLegged(req?: BuiltinTokenRequest): Promise<string>;
  /** From the external issuer, for the demo partner unless clientId says otherwise. */
  external(claims?: ExternalClaims): Promise<string>;
  threeLegged(phoneNumber: string, claims?: ExternalClaims): Promise<string>;
  /** Expired an hour ago (well past the verifier's clock tolerance). */
  expired(claims?: ExternalClaims): Promise<string>;
  issuer: TestIssuer;
  close(): Promise<void>;
}

export async function startTokenSource(): Promise<TokenSource> {
  const issuer = await startTestIssuer();
  let url: string | undefined;
  const external = (c: ExternalClaims = {}) => {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + (c.expiresIn ?? 300);
    return issuer.mint({
      client_id: c.clientId ?? 'demo-key',
      scope: c.scope ?? 'sim-swap kyc-tenure:check-tenure',
      sub: c.sub,
      ...(c.purpose === undefined ? {} : { purpose: c.purpose }),
      exp,
      iat: Math.min(now, exp - 60),
    });
  };
  return {
    env: issuer.env,
    issuer,
    attach: (h) => { url = h.url; },
    twoLegged: (r = {}) => {
      if (!url) throw new Error('token source not attached to a harness');
      return fetchToken(url, { clientId: r.clientId ?? 'demo-key', clientSecret: r.clientSecret ?? 'demo-secret', ...(r.scope === undefined ? {} : { scope: r.scope }) });
    },
    external,
    threeLegged: (phone, c = {}) => external({ ...c, sub: `tel:${phone}` }),
    expired: (c = {}) => external({ ...c, expiresIn: -3600 }),
    close: () => issuer.close(),
  };
}
