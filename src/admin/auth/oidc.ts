import { JWTPayload, createRemoteJWKSet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { AdminSettings } from '../../config/admin-settings';
import { Principal, claimAt, rolesFrom } from './principal';

/** What /auth/login keeps until the IdP sends the browser back (never sent anywhere). */
export interface PendingLogin {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
}

/** The scopes the console asks for; the roles claim comes with them (docs/console.md says how to map it). */
const SCOPES = 'openid email profile';

type OidcSettings = Pick<AdminSettings, 'ADMIN_OIDC_CLIENT_ID' | 'ADMIN_OIDC_CLIENT_SECRET' | 'ADMIN_ROLES_CLAIM' | 'ADMIN_OIDC_AUDIENCE'> & { ADMIN_OIDC_ISSUER: string };

/** The person's name in the change log: e-mail, else preferred username, else the IdP's subject. */
function subjectOf(claims: Record<string, unknown>): string {
  for (const k of ['email', 'preferred_username', 'sub']) {
    const v = claims[k];
    if (typeof v === 'string' && v.length > 0) return v.slice(0, 256);
  }
  return 'unknown';
}

/**
 * The operator's IdP (CONTRACT §12): the console's sign-in by authorization code + PKCE
 * (openid-client), and its access tokens taken as Bearer (jose against its JWKS). Discovery is
 * lazy and retried: an IdP down at start must not stop the service, only sign-in.
 */
export class OidcIdp {
  private config?: Promise<client.Configuration>;
  private jwks?: ReturnType<typeof createRemoteJWKSet>;

  constructor(private readonly settings: OidcSettings) {}

  private configuration(): Promise<client.Configuration> {
    const s = this.settings;
    this.config ??= client.discovery(new URL(s.ADMIN_OIDC_ISSUER), s.ADMIN_OIDC_CLIENT_ID ?? '', s.ADMIN_OIDC_CLIENT_SECRET,
      s.ADMIN_OIDC_CLIENT_SECRET === undefined ? client.None() : undefined,
      // Plain http only where the settings allow it (never in production: admin-settings.ts).
      s.ADMIN_OIDC_ISSUER.startsWith('http://') ? { execute: [client.allowInsecureRequests] } : undefined);
    this.config.catch(() => { this.config = undefined; });
    return this.config;
  }

  /** Where to send the browser, and what to keep until it comes back. */
  async startLogin(redirectUri: string, returnTo: string): Promise<{ url: string; pending: PendingLogin }> {
    const config = await this.configuration();
    const codeVerifier = client.randomPKCECodeVerifier();
    const pending = { state: client.randomState(), nonce: client.randomNonce(), codeVerifier, returnTo };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri, scope: SCOPES, state: pending.state, nonce: pending.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: 'S256',
    });
    return { url: url.href, pending };
  }

  /** The signed-in person, from the ID token's claims and the userinfo answer. Throws when the IdP's answer does not check out. */
  async finishLogin(callbackUrl: URL, pending: PendingLogin): Promise<Principal> {
    const config = await this.configuration();
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: pending.codeVerifier, expectedState: pending.state, expectedNonce: pending.nonce, idTokenExpected: true,
    });
    const idClaims = (tokens.claims() ?? {}) as Record<string, unknown>;
    let claims = idClaims;
    if (config.serverMetadata().userinfo_endpoint) {
      const info = await client.fetchUserInfo(config, tokens.access_token, String(idClaims.sub));
      claims = { ...idClaims, ...info };
    }
    return { subject: subjectOf(claims), method: 'oidc-session', roles: rolesFrom(claimAt(claims, this.settings.ADMIN_ROLES_CLAIM)) };
  }

  /** A Bearer access token of the IdP (a JWT), or undefined when it is not one this service takes. */
  async verifyAccessToken(token: string): Promise<Principal | undefined> {
    const config = await this.configuration();
    const meta = config.serverMetadata();
    if (!meta.jwks_uri) return undefined;
    this.jwks ??= createRemoteJWKSet(new URL(meta.jwks_uri));
    const s = this.settings;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.jwks, {
        issuer: meta.issuer, ...(s.ADMIN_OIDC_AUDIENCE ? { audience: s.ADMIN_OIDC_AUDIENCE } : {}), requiredClaims: ['exp', 'sub'],
      }));
    } catch {
      return undefined;
    }
    if (!s.ADMIN_OIDC_AUDIENCE) {
      // Without a configured audience: a token made for this client (its aud or azp), not any client of the IdP.
      const aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
      if (!aud.includes(s.ADMIN_OIDC_CLIENT_ID) && payload.azp !== s.ADMIN_OIDC_CLIENT_ID) return undefined;
    }
    const claims = payload as Record<string, unknown>;
    return { subject: subjectOf(claims), method: 'oidc-bearer', roles: rolesFrom(claimAt(claims, s.ADMIN_ROLES_CLAIM)) };
  }
}
