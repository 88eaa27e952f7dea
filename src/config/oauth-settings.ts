import { SettingsOf, SettingsRule, bool, httpUrl, int, issue, optionalString } from './setting-types';
import { ServerSettings } from './server-settings';

/** CAMARA's OAuth 2.0: the built-in issuer and a trusted external one. */
export const oauthSettings = {
  /** The service's base URL as partners reach it: the built-in OAuth issuer's `iss` and its metadata URLs. Default: the listening address. */
  PUBLIC_URL: httpUrl.optional(),
  /** The built-in OAuth 2.0 issuer (POST /oauth2/token, JWKS, metadata); false: only the external issuer's tokens are accepted. */
  OAUTH_BUILTIN: bool(true),
  /** The built-in issuer's keys: a JWKS/JWK or PEM file, first key signs, others verify only (rotation). Unset: a key generated at start. */
  OAUTH_SIGNING_KEY_FILE: optionalString,
  /** Lifetime of the built-in issuer's access tokens. */
  OAUTH_TOKEN_TTL_S: int(60, 86_400, 3600),
  /** `aud` the service's tokens carry and external tokens must carry; default: the built-in issuer (PUBLIC_URL); unset with only the external issuer: not checked. */
  OAUTH_AUDIENCE: optionalString,
  /** A trusted external issuer (`iss`) and its JWKS URL, set together. */
  OAUTH_ISSUER: optionalString,
  OAUTH_JWKS_URL: httpUrl.optional(),
  /** Longest wait for one fetch of the external JWKS. */
  OAUTH_JWKS_TIMEOUT_MS: int(100, 30_000, 2000),
  /** External keys older than this are refreshed in the background. */
  OAUTH_JWKS_MAX_AGE_S: int(1, 86_400, 600),
  /** After an external JWKS fetch, an unknown kid waits this long before it may trigger another. */
  OAUTH_JWKS_COOLDOWN_S: int(0, 3600, 10),
  /** Allowed clock difference for exp, nbf and iat. */
  OAUTH_CLOCK_TOLERANCE_S: int(0, 300, 30),
  /** External issuer's tokens must carry `typ: at+jwt` (RFC 9068); false also accepts `JWT` or no typ (never a token with `nonce`). The built-in issuer's always must. */
  OAUTH_REQUIRE_AT_JWT_TYP: bool(true),
  /** Verified tokens remembered (by hash) to skip signature checks; 0 disables. Never past a token's exp. */
  OAUTH_VERIFIED_CACHE_MAX: int(0, 1_000_000, 10_000),
  OAUTH_VERIFIED_CACHE_S: int(0, 3600, 60),
};

export type OauthSettings = SettingsOf<typeof oauthSettings>;

export const issuerRules: SettingsRule<OauthSettings> = (c, ctx) => {
  if ((c.OAUTH_ISSUER === undefined) !== (c.OAUTH_JWKS_URL === undefined)) {
    issue(ctx, c.OAUTH_ISSUER ? 'OAUTH_JWKS_URL' : 'OAUTH_ISSUER', 'OAUTH_ISSUER and OAUTH_JWKS_URL must be set together');
  }
  if (!c.OAUTH_BUILTIN && !c.OAUTH_ISSUER) issue(ctx, 'OAUTH_BUILTIN', 'false needs an external issuer (OAUTH_ISSUER, OAUTH_JWKS_URL)');
  if (c.OAUTH_ISSUER !== undefined && c.PUBLIC_URL !== undefined && c.OAUTH_BUILTIN && c.OAUTH_ISSUER === c.PUBLIC_URL) {
    issue(ctx, 'OAUTH_ISSUER', 'must differ from the built-in issuer (PUBLIC_URL)');
  }
};

export const productionIssuerRule: SettingsRule<OauthSettings & Pick<ServerSettings, 'NODE_ENV'>> = (c, ctx) => {
  if (c.NODE_ENV === 'production' && c.OAUTH_BUILTIN) {
    // A generated key signs tokens no other instance accepts and no restart keeps; a guessed URL makes a wrong `iss`.
    if (!c.OAUTH_SIGNING_KEY_FILE) issue(ctx, 'OAUTH_SIGNING_KEY_FILE', 'is required in production (or OAUTH_BUILTIN=false)');
    if (!c.PUBLIC_URL) issue(ctx, 'PUBLIC_URL', 'is required in production (the built-in issuer\'s identifier)');
  }
};

export const productionJwksRule: SettingsRule<OauthSettings & Pick<ServerSettings, 'NODE_ENV'>> = (c, ctx) => {
  if (c.NODE_ENV === 'production' && c.OAUTH_JWKS_URL && !c.OAUTH_JWKS_URL.startsWith('https://')) {
    issue(ctx, 'OAUTH_JWKS_URL', 'must be https in production');
  }
};
