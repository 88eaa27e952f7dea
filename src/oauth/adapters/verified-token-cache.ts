import { createHash } from 'node:crypto';

/** What a verified token said, before the partner is looked up again. */
export interface VerifiedClaims {
  clientId: string;
  scopes: readonly string[];
  phoneNumber?: string;
  /** The token names an end user (a `sub` other than the client), whether or not by phone number. */
  endUser?: true;
  purpose?: string;
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
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries: number, private readonly maxAgeMs: number) {}

  static keyOf(token: string): string {
    return createHash('sha256').update(token).digest('base64url');
  }

  get(key: string, nowMs: number): VerifiedClaims | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (nowMs >= entry.untilMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.claims;
  }

  set(key: string, claims: VerifiedClaims, nowMs: number): void {
    if (this.maxEntries === 0 || this.maxAgeMs === 0) return;
    const untilMs = Math.min(claims.expMs, nowMs + this.maxAgeMs);
    if (untilMs <= nowMs) return;
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries) {
      // Map order is insertion order: the oldest entry goes first.
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, { claims, untilMs });
  }

  /** Forgets everything (keys rotated or removed: a cached verdict may no longer hold). */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
