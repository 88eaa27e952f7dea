import { z } from 'zod';
import { ServerSettings } from './server-settings';
import { SettingsOf, SettingsRule, httpUrl, int, issue, optionalString } from './setting-types';

/** The management plane's listener and sign-in (CONTRACT §12, docs/console.md). */
export const adminSettings = {
  /**
   * Without ADMIN_PORT and outside production: the console and admin API on a loopback-only
   * listener of their own, this port (0 picks a free one). Ignored when ADMIN_PORT is set.
   */
  ADMIN_CONSOLE_PORT: int(0, 65535, 8081),
  /** The operator's OpenID Connect provider (its issuer URL); with ADMIN_OIDC_CLIENT_ID, staff sign in there. */
  ADMIN_OIDC_ISSUER: httpUrl.optional(),
  ADMIN_OIDC_CLIENT_ID: optionalString,
  /** Only for a confidential client; a public one uses PKCE alone. */
  ADMIN_OIDC_CLIENT_SECRET: optionalString,
  /** The claim (a dotted path, e.g. `realm_access.roles`) holding the roles viewer, partner-admin, compliance. */
  ADMIN_ROLES_CLAIM: z.string().regex(/^[A-Za-z0-9_:-]+(\.[A-Za-z0-9_:-]+)*$/, 'must be a claim name or a dotted path').default('roles'),
  /** The `aud` an IdP access token must carry to be taken as Bearer; unset: `aud` or `azp` must name ADMIN_OIDC_CLIENT_ID. */
  ADMIN_OIDC_AUDIENCE: optionalString,
  /**
   * The console's address as staff reach it (e.g. https://admin.example.com): the sign-in's
   * redirect URI and the one Origin writes may come from. Unset: the admin listener's own address.
   */
  ADMIN_PUBLIC_URL: httpUrl.optional(),
  /** JSON `{"tokens":[{"name","sha256","roles"}]}`: bearer tokens for automation (their SHA-256, never the token). */
  ADMIN_TOKENS_FILE: optionalString,
  /** A console session ends after this long without a request, and after ADMIN_SESSION_MAX_S whatever happens. */
  ADMIN_SESSION_IDLE_S: int(60, 86_400, 1800),
  ADMIN_SESSION_MAX_S: int(300, 604_800, 43_200),
};

export type AdminSettings = SettingsOf<typeof adminSettings>;

export const adminRules: SettingsRule<AdminSettings & Pick<ServerSettings, 'NODE_ENV'>> = (c, ctx) => {
  if ((c.ADMIN_OIDC_ISSUER === undefined) !== (c.ADMIN_OIDC_CLIENT_ID === undefined)) {
    issue(ctx, c.ADMIN_OIDC_ISSUER === undefined ? 'ADMIN_OIDC_ISSUER' : 'ADMIN_OIDC_CLIENT_ID', 'is needed with the other one (ADMIN_OIDC_ISSUER and ADMIN_OIDC_CLIENT_ID go together)');
  }
  if (c.ADMIN_OIDC_CLIENT_SECRET !== undefined && c.ADMIN_OIDC_CLIENT_ID === undefined) issue(ctx, 'ADMIN_OIDC_CLIENT_SECRET', 'needs ADMIN_OIDC_CLIENT_ID');
  if (c.ADMIN_SESSION_IDLE_S > c.ADMIN_SESSION_MAX_S) issue(ctx, 'ADMIN_SESSION_IDLE_S', 'must be at most ADMIN_SESSION_MAX_S');
  if (c.NODE_ENV === 'production' && c.ADMIN_OIDC_ISSUER !== undefined && !c.ADMIN_OIDC_ISSUER.startsWith('https://')) {
    issue(ctx, 'ADMIN_OIDC_ISSUER', 'must be https in production');
  }
};

/** Where the admin API may be signed into: an IdP, a tokens file, or neither (then only a one-time link outside production). */
export function adminAuthConfigured(c: Pick<AdminSettings, 'ADMIN_OIDC_ISSUER' | 'ADMIN_TOKENS_FILE'>): boolean {
  return c.ADMIN_OIDC_ISSUER !== undefined || c.ADMIN_TOKENS_FILE !== undefined;
}
