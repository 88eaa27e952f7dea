import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** What a verified token said, before the partner is looked up again. */
export interface VerifiedClaims {
  clientId: string;
  scopes: readonly string[];
  phoneNumber?: string;
  /** The token names an end user (a `sub` other than the client), whether or not by phone number. */
  endUser?: true;
  purpose?: string;
  /** The built-in issuer's tokens: the id of the client secret the token was obtained with. */
  credentialId?: string;
  /** The token's `exp`, in ms. */
  expMs: number;
}

interface Entry {
  claims: VerifiedClaims;
  untilMs: number;
}

/**
 * Tokens verified recently, keyed by the SHA-256 of the token (the token itself is not kept),
 * bounded in entries and age and never kept past the token's `exp`. A hit skips the signature
 * check, the costliest step of a CAMARA request that the cache answers.
 *
 * lru-cache keeps the bound (the least recently used token goes first); the deadline is ours,
 * against the caller's clock, because a token is dead from its `exp` on, while lru-cache's TTL
 * reads its own clock and serves an entry up to and including its last millisecond.
 */
export class VerifiedTokenCache {
  private readonly entries: LRUCache<string, Entry> | undefined;

  constructor(maxEntries: number, private readonly maxAgeMs: number) {
    // lru-cache needs a positive bound; 0 entries or 0 seconds turns the cache off.
    if (maxEntries > 0 && maxAgeMs > 0) this.entries = new LRUCache({ max: maxEntries });
  }

  static keyOf(token: string): string {
    return createHash('sha256').update(token).digest('base64url');
  }

  get(key: string, nowMs: number): VerifiedClaims | undefined {
    const entry = this.entries?.get(key);
    if (!entry) return undefined;
    if (nowMs >= entry.untilMs) {
      this.entries?.delete(key);
      return undefined;
    }
    return entry.claims;
  }

  set(key: string, claims: VerifiedClaims, nowMs: number): void {
    const untilMs = Math.min(claims.expMs, nowMs + this.maxAgeMs);
    if (untilMs <= nowMs) return;
    this.entries?.set(key, { claims, untilMs });
  }

  /** Forgets everything (keys rotated or removed: a cached verdict may no longer hold). */
  clear(): void {
    this.entries?.clear();
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }
}
