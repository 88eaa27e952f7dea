import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { JWK, SignJWT, importJWK } from 'jose';

/*
 * Access tokens for the scenarios. Two-legged ones come from the deployment's token endpoint
 * (client credentials, HTTP Basic). Three-legged and expired ones need an issuer the
 * deployment trusts: either the kit signs them with a private key whose public half the
 * deployment's OAUTH_JWKS_URL publishes (`--issuer-key`, `--issuer`, `--audience`), or an
 * operator's own command prints one (`--three-legged-command`, given PHONE_NUMBER, SCOPE and
 * EXPIRES_IN in its environment). An invalid token is a valid one with its signature spoiled.
 */

export interface TokenOptions {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  issuerKeyFile?: string;
  issuer?: string;
  audience?: string;
  threeLeggedCommand?: string;
}

const run = promisify(execFile);

export class TokenSource {
  private readonly cache = new Map<string, Promise<string>>();
  private key: JWK | undefined;

  constructor(private readonly o: TokenOptions) {}

  /** A client-credentials token for these scopes (cached per scope set: tokens outlive a run). */
  twoLegged(scopes: readonly string[]): Promise<string> {
    const scope = [...scopes].sort().join(' ');
    let t = this.cache.get(scope);
    if (!t) {
      t = this.fetch(scope);
      this.cache.set(scope, t);
      t.catch(() => this.cache.delete(scope));
    }
    return t;
  }

  private async fetch(scope: string): Promise<string> {
    const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) form.set('scope', scope);
    const res = await fetch(this.o.tokenUrl, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${enc(this.o.clientId)}:${enc(this.o.clientSecret)}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    const body = await res.json().catch(() => ({})) as { access_token?: unknown; error?: unknown };
    if (res.status !== 200 || typeof body.access_token !== 'string') {
      throw new Error(`token endpoint ${this.o.tokenUrl} refused scope "${scope}": ${res.status} ${typeof body.error === 'string' ? body.error : ''}`);
    }
    return body.access_token;
  }

  /** A token naming one end user (`sub: tel:+…`); negative expiresIn for an expired one. */
  async threeLegged(phoneNumber: string | undefined, scopes: readonly string[], expiresIn = 300): Promise<string> {
    const scope = scopes.join(' ');
    if (this.o.threeLeggedCommand) {
      const env = { ...process.env, PHONE_NUMBER: phoneNumber ?? '', SCOPE: scope, EXPIRES_IN: String(expiresIn) };
      const { stdout } = await run('/bin/sh', ['-c', this.o.threeLeggedCommand], { env, timeout: 30_000 });
      return stdout.trim();
    }
    if (!this.o.issuerKeyFile || !this.o.issuer || !this.o.audience) {
      throw new Error('this scenario needs a three-legged or expired token: pass --issuer-key, --issuer and --audience, or --three-legged-command');
    }
    this.key ??= JSON.parse(readFileSync(this.o.issuerKeyFile, 'utf8')) as JWK;
    const alg = this.key.alg ?? 'ES256';
    const now = Math.floor(Date.now() / 1000);
    const exp = now + expiresIn;
    const claims: Record<string, unknown> = { client_id: this.o.clientId, scope };
    if (phoneNumber !== undefined) claims.sub = `tel:${phoneNumber}`;
    return new SignJWT(claims)
      .setProtectedHeader({ alg, typ: 'at+jwt', ...(this.key.kid ? { kid: this.key.kid } : {}) })
      .setIssuer(this.o.issuer).setAudience(this.o.audience).setIssuedAt(Math.min(now, exp - 60)).setExpirationTime(exp)
      .sign(await importJWK(this.key, alg));
  }

  /** An hour past its expiry: beyond any verifier's clock tolerance. */
  expired(scopes: readonly string[]): Promise<string> {
    return this.threeLegged(undefined, scopes, -3600);
  }

  /** A token the deployment issued, its signature altered: well formed, never valid. */
  async invalid(scopes: readonly string[]): Promise<string> {
    const t = await this.twoLegged(scopes);
    const dot = t.lastIndexOf('.');
    const sig = t.slice(dot + 1);
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    return `${t.slice(0, dot)}.${flipped}`;
  }
}
