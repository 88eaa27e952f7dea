import { JWTPayload, JWTVerifyGetKey, ProtectedHeaderParameters, decodeJwt, errors, jwtVerify } from 'jose';
import { scopesForOperations } from '../access-scopes';
import { UnauthenticatedError } from '../../errors/domain-errors';
import { AccessGrant, AccessTokenVerifier } from '../ports/access-tokens';
import { Clock } from '../../kernel/clock';
import { Partner, PartnerRegistry, validSecrets } from '../../partners/partners';
import { SIGNING_ALGORITHMS } from './signing-keys';
import { VerifiedClaims, VerifiedTokenCache } from './verified-token-cache';

/** One issuer whose tokens are accepted. */
export interface TrustedIssuer {
  issuer: string;
  /** The `aud` a token must carry; undefined: not checked (external issuer without OAUTH_AUDIENCE). */
  audience?: string;
  /** Key selection (by kid and alg) for this issuer's current keys. */
  getKey: () => JWTVerifyGetKey;
  /**
   * The `typ` headers accepted, lowercase without `application/` (RFC 9068 §4: `at+jwt`);
   * `undefined` in the list accepts a token without typ. Absent: `at+jwt` only.
   */
  typs?: readonly (string | undefined)[];
  /**
   * The built-in issuer's tokens name the client secret they were obtained with (`credential_id`);
   * it must still be valid at every use, so revoking a secret ends its tokens (CONTRACT §12).
   */
  namesCredential?: true;
}

/** RFC 9068's access token type; `application/at+jwt` is the same type spelled in full. */
export const AT_JWT_ONLY: readonly (string | undefined)[] = ['at+jwt'];
/** OAUTH_REQUIRE_AT_JWT_TYP=false: what many IdPs mint for access tokens too. */
export const AT_JWT_OR_JWT: readonly (string | undefined)[] = ['at+jwt', 'jwt', undefined];

export interface JwtAccessTokenVerifierOptions {
  registry: PartnerRegistry;
  clock: Clock;
  issuers: TrustedIssuer[];
  clockToleranceS: number;
  cache?: { maxEntries: number; maxAgeS: number };
}

/** A compact JWS is three base64url parts; anything far longer is not a token we issue or trust. */
const MAX_TOKEN_LENGTH = 8192;
const TEL_SUBJECT = /^tel:(\+[1-9][0-9]{4,14})$/;
const MAX_CLAIM_LENGTH = 256;

/**
 * Verifies JWT access tokens (CONTRACT §7) with jose: the issuer is chosen by `iss`, the key by
 * kid within that issuer's keys, each key verifies under its one algorithm (ES256 or RS256),
 * and iss, aud, exp and nbf are checked with a small clock tolerance. The token's `client_id`
 * must name an enabled partner, looked up on every call (a partner disabled now is refused now),
 * and a built-in token's `credential_id` a secret of that partner valid now (revoked: refused now).
 */
export class JwtAccessTokenVerifier implements AccessTokenVerifier {
  private readonly cache: VerifiedTokenCache | undefined;
  private readonly scopesOf = new WeakMap<Partner, ReadonlySet<string>>();

  constructor(private readonly opts: JwtAccessTokenVerifierOptions) {
    if (opts.cache) this.cache = new VerifiedTokenCache(opts.cache.maxEntries, opts.cache.maxAgeS * 1000);
  }

  async verify(token: string): Promise<AccessGrant> {
    if (typeof token !== 'string' || token.length === 0) throw new UnauthenticatedError('access token missing');
    if (token.length > MAX_TOKEN_LENGTH) throw new UnauthenticatedError('access token malformed');
    const nowMs = this.opts.clock.nowMs();
    const key = this.cache ? VerifiedTokenCache.keyOf(token) : '';
    let claims = this.cache?.get(key, nowMs);
    if (!claims) {
      claims = await this.verifySignedToken(token, nowMs);
      this.cache?.set(key, claims, nowMs);
    }
    return this.grantOf(claims);
  }

  /** Forgets cached verdicts: call when keys are rotated or removed. */
  clearCache(): void {
    this.cache?.clear();
  }

  private async verifySignedToken(token: string, nowMs: number): Promise<VerifiedClaims> {
    let iss: unknown;
    try {
      iss = decodeJwt(token).iss;
    } catch {
      throw new UnauthenticatedError('access token malformed');
    }
    // At most two issuers, whose identifiers may be known only once the server listens.
    const trusted = typeof iss === 'string' ? this.opts.issuers.find((i) => i.issuer === iss) : undefined;
    if (!trusted) throw new UnauthenticatedError('access token issuer not trusted');
    let payload: JWTPayload;
    let protectedHeader: ProtectedHeaderParameters;
    try {
      ({ payload, protectedHeader } = await jwtVerify(token, trusted.getKey(), {
        issuer: trusted.issuer,
        ...(trusted.audience !== undefined ? { audience: trusted.audience } : {}),
        algorithms: [...SIGNING_ALGORITHMS],
        clockTolerance: this.opts.clockToleranceS,
        currentDate: new Date(nowMs),
        // RFC 9068 §2.2: iat is required in an access token.
        requiredClaims: ['exp', 'iat'],
      }));
    } catch (err) {
      throw new UnauthenticatedError(reasonOf(err), undefined, { cause: err });
    }
    checkAccessTokenType(protectedHeader, payload, trusted.typs ?? AT_JWT_ONLY);
    // jose checks iat's type only; a token minted in the future (beyond the clock tolerance) is
    // not one a correct issuer signed now, and would outlive the lifetime it seems to have.
    if ((payload.iat as number) * 1000 > nowMs + this.opts.clockToleranceS * 1000) {
      throw new UnauthenticatedError('access token issued in the future');
    }
    return claimsOf(payload, trusted.namesCredential === true);
  }

  private grantOf(claims: VerifiedClaims): AccessGrant {
    const partner = this.opts.registry.find(claims.clientId);
    if (!partner || !partner.enabled) throw new UnauthenticatedError('access token client unknown or disabled');
    if (claims.credentialId !== undefined && !validSecrets(partner, this.opts.clock.nowMs()).some((s) => s.id === claims.credentialId)) {
      throw new UnauthenticatedError('access token credential revoked');
    }
    let allowed = this.scopesOf.get(partner);
    if (!allowed) {
      allowed = new Set(scopesForOperations(partner.operations));
      this.scopesOf.set(partner, allowed);
    }
    const grant: AccessGrant = { partner, scopes: new Set(claims.scopes.filter((s) => allowed.has(s))) };
    if (claims.phoneNumber !== undefined) grant.phoneNumber = claims.phoneNumber;
    if (claims.endUser) grant.endUser = true;
    if (claims.purpose !== undefined) grant.purpose = claims.purpose;
    return grant;
  }
}

/**
 * RFC 9068 §4: the token must say it is an access token, so an ID token (or any other JWT the
 * issuer signs with the same keys) is not taken for one. A `nonce` marks an OpenID Connect ID
 * token whatever its typ says.
 */
function checkAccessTokenType(header: ProtectedHeaderParameters, payload: JWTPayload, accepted: readonly (string | undefined)[]): void {
  const typ = typeof header.typ === 'string' ? header.typ.toLowerCase().replace(/^application\//, '') : header.typ;
  if ((typ !== undefined && typeof typ !== 'string') || !accepted.includes(typ) || payload.nonce !== undefined) throw new UnauthenticatedError('access token type not accepted');
}

/** The claims the service uses, checked for shape; a token that breaks one is malformed. */
function claimsOf(payload: JWTPayload, namesCredential: boolean): VerifiedClaims {
  const { client_id: clientId, scope, sub, purpose, exp, credential_id: credentialId } = payload;
  if (typeof clientId !== 'string' || clientId.length === 0 || clientId.length > MAX_CLAIM_LENGTH) {
    throw new UnauthenticatedError('access token has no client_id');
  }
  if (scope !== undefined && typeof scope !== 'string') throw new UnauthenticatedError('access token scope malformed');
  const claims: VerifiedClaims = {
    clientId,
    scopes: typeof scope === 'string' ? scope.split(' ').filter((s) => s.length > 0) : [],
    expMs: (exp as number) * 1000,
  };
  if (namesCredential) {
    // A built-in token without one predates revocable secrets (or was not made by this service).
    if (typeof credentialId !== 'string' || credentialId.length === 0 || credentialId.length > MAX_CLAIM_LENGTH) {
      throw new UnauthenticatedError('access token has no credential_id');
    }
    claims.credentialId = credentialId;
  }
  if (typeof sub === 'string' && sub.startsWith('tel:')) {
    const m = TEL_SUBJECT.exec(sub);
    if (!m) throw new UnauthenticatedError('access token subject is not a tel:+E.164 number');
    claims.phoneNumber = m[1];
  }
  // RFC 9068: a client-credentials token's sub is the client itself; any other subject is a user.
  if (typeof sub === 'string' && sub.length > 0 && sub !== clientId) claims.endUser = true;
  if (purpose !== undefined) {
    if (typeof purpose !== 'string' || purpose.length === 0 || purpose.length > MAX_CLAIM_LENGTH) {
      throw new UnauthenticatedError('access token purpose malformed');
    }
    claims.purpose = purpose;
  }
  return claims;
}

/** A reason safe to show the caller: which check failed, never key material or the token. */
function reasonOf(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'access token expired';
  if (err instanceof errors.JWTClaimValidationFailed) {
    switch (err.claim) {
      case 'nbf': return 'access token not yet valid';
      case 'iat': return 'access token issued in the future';
      case 'aud': return 'access token audience not accepted';
      case 'iss': return 'access token issuer not trusted';
      case 'typ': return 'access token type not accepted';
      default: return 'access token claims invalid';
    }
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'access token signature invalid';
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) return 'access token algorithm not accepted';
  if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys) return 'access token signing key unknown';
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) return 'access token issuer keys unavailable';
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) return 'access token malformed';
  return 'access token could not be verified';
}
