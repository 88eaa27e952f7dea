import { OauthSettings } from '../../config/oauth-settings';
import { Clock } from '../../kernel/clock';
import { PartnerRegistry } from '../../partners/partners';
import { Logger } from '../../observability/logger';
import { BuiltinIssuer } from './builtin-issuer';
import { ExternalJwks } from './external-jwks';
import { AT_JWT_ONLY, AT_JWT_OR_JWT, JwtAccessTokenVerifier, TrustedIssuer } from './jwt-access-token-verifier';

export interface AccessTokens {
  verifier: JwtAccessTokenVerifier;
  /** The built-in issuer, unless OAUTH_BUILTIN=false. */
  builtin?: BuiltinIssuer;
  /** Re-reads the signing key file (SIGHUP); throws and keeps the keys in force when it is bad. */
  reloadKeys(): Promise<number>;
}

export interface AccessTokensDeps {
  registry: PartnerRegistry;
  clock: Clock;
  logger: Logger;
  /** The built-in issuer's identifier; read when first needed (the default is known once listening). */
  publicUrl: () => string;
}

/** Builds the issuers and the verifier from config: keys imported once, external keys prefetched. */
export async function createAccessTokens(config: OauthSettings, deps: AccessTokensDeps): Promise<AccessTokens> {
  const audience = () => config.OAUTH_AUDIENCE ?? deps.publicUrl();
  const issuers: TrustedIssuer[] = [];
  let builtin: BuiltinIssuer | undefined;
  if (config.OAUTH_BUILTIN) {
    const b = await BuiltinIssuer.create({
      issuer: deps.publicUrl, audience, ttlS: config.OAUTH_TOKEN_TTL_S, clock: deps.clock,
      ...(config.OAUTH_SIGNING_KEY_FILE ? { keyFile: config.OAUTH_SIGNING_KEY_FILE } : {}),
    });
    builtin = b;
    issuers.push({
      get issuer() { return b.issuer; },
      get audience() { return b.audience; },
      getKey: () => b.verifyKey(),
      typs: AT_JWT_ONLY,
      namesCredential: true,
    });
    if (!config.OAUTH_SIGNING_KEY_FILE) deps.logger.warn('no OAUTH_SIGNING_KEY_FILE: access tokens are signed with a key generated at start (they die with this process)');
  }
  if (config.OAUTH_ISSUER && config.OAUTH_JWKS_URL) {
    const external = new ExternalJwks({
      url: config.OAUTH_JWKS_URL,
      timeoutMs: config.OAUTH_JWKS_TIMEOUT_MS,
      maxAgeMs: config.OAUTH_JWKS_MAX_AGE_S * 1000,
      cooldownMs: config.OAUTH_JWKS_COOLDOWN_S * 1000,
      onRefreshError: (err) => deps.logger.warn({ err: err.message, jwksUrl: config.OAUTH_JWKS_URL }, 'external issuer keys could not be fetched; keeping the keys in force'),
    });
    external.refresh().catch(() => undefined); // prefetch; failures are logged and retried on demand
    const trusted: TrustedIssuer = {
      issuer: config.OAUTH_ISSUER, getKey: () => external.getKey, typs: config.OAUTH_REQUIRE_AT_JWT_TYP ? AT_JWT_ONLY : AT_JWT_OR_JWT,
    };
    if (config.OAUTH_AUDIENCE) trusted.audience = config.OAUTH_AUDIENCE;
    else deps.logger.warn('OAUTH_ISSUER without OAUTH_AUDIENCE: the external tokens\' audience is not checked');
    issuers.push(trusted);
  }
  const verifier = new JwtAccessTokenVerifier({
    registry: deps.registry,
    clock: deps.clock,
    issuers,
    clockToleranceS: config.OAUTH_CLOCK_TOLERANCE_S,
    cache: { maxEntries: config.OAUTH_VERIFIED_CACHE_MAX, maxAgeS: config.OAUTH_VERIFIED_CACHE_S },
  });
  const result: AccessTokens = {
    verifier,
    reloadKeys: async () => {
      const n = builtin ? await builtin.reload() : 0;
      verifier.clearCache();
      return n;
    },
  };
  if (builtin) result.builtin = builtin;
  return result;
}
