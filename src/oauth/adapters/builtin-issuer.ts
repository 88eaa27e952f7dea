import { randomUUID } from 'node:crypto';
import { JSONWebKeySet, JWTVerifyGetKey, SignJWT } from 'jose';
import { AccessTokenSigner, SignedAccessToken } from '../ports/access-tokens';
import { Clock } from '../../kernel/clock';
import { KeyRing, generateKeyRing, loadKeyRingFile } from './signing-keys';

export interface BuiltinIssuerOptions {
  /** The issuer identifier: the service's public base URL (`iss` of every token it signs); read when needed. */
  issuer: () => string;
  /** The `aud` of every token it signs. */
  audience: () => string;
  ttlS: number;
  /** OAUTH_SIGNING_KEY_FILE; absent: a key generated at start. */
  keyFile?: string;
  clock: Clock;
}

/**
 * The built-in OAuth 2.0 issuer's keys and signer (client credentials, two-legged only).
 * Tokens follow RFC 9068 (JWT access tokens): `typ: at+jwt`, iss, aud, sub = client_id, scope,
 * iat, exp, jti, and `credential_id` (the id of the client secret it was obtained with: CONTRACT §12
 * revocation ends the tokens of a revoked secret), with the signing key's kid in the header.
 */
export class BuiltinIssuer implements AccessTokenSigner {
  private constructor(private readonly opts: BuiltinIssuerOptions, private ring: KeyRing) {}

  static async create(opts: BuiltinIssuerOptions): Promise<BuiltinIssuer> {
    const ring = opts.keyFile ? await loadKeyRingFile(opts.keyFile) : await generateKeyRing();
    return new BuiltinIssuer(opts, ring);
  }

  get issuer(): string {
    return this.opts.issuer();
  }

  get audience(): string {
    return this.opts.audience();
  }

  /** The signing key's id (new tokens carry it). */
  get signingKid(): string {
    return this.ring.signing.kid;
  }

  /** Public keys: the signing key first, then previous keys still accepted. */
  jwks(): JSONWebKeySet {
    return this.ring.jwks;
  }

  /** The current key set for verification; replaced as a whole by reload(). */
  verifyKey(): JWTVerifyGetKey {
    return this.ring.verifyKey;
  }

  /**
   * Re-reads OAUTH_SIGNING_KEY_FILE (SIGHUP). A bad file throws and leaves the keys in force;
   * returns how many keys are now accepted. Without a key file there is nothing to reload.
   */
  async reload(): Promise<number> {
    if (this.opts.keyFile) this.ring = await loadKeyRingFile(this.opts.keyFile);
    return this.ring.jwks.keys.length;
  }

  async sign(grant: { clientId: string; scopes: readonly string[]; secretId: string }): Promise<SignedAccessToken> {
    const { signing } = this.ring;
    const now = Math.floor(this.opts.clock.nowMs() / 1000);
    const token = await new SignJWT({ client_id: grant.clientId, scope: grant.scopes.join(' '), credential_id: grant.secretId })
      .setProtectedHeader({ alg: signing.alg, kid: signing.kid, typ: 'at+jwt' })
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setSubject(grant.clientId)
      .setIssuedAt(now)
      .setExpirationTime(now + this.opts.ttlS)
      .setJti(randomUUID())
      .sign(signing.key);
    return { token, expiresInS: this.opts.ttlS };
  }
}
