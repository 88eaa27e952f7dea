/** A cached fact with the moment it was fetched, so freshness is judged by the reader. */
export interface CacheEntry {
  value: string;
  storedAtMs: number;
}

/** What a read of a cache key found. */
export interface CacheRead {
  /** Null when the key is absent, expired, unreadable or evicted. */
  entry: CacheEntry | null;
  /**
   * The key's state as this read saw it, named by a conditional write; null when the key holds
   * nothing at all. Opaque: two reads see the same version only if nothing was written to or
   * evicted from the key in between.
   */
  version: string | null;
}

/**
 * How long an eviction is remembered: a write based on a read from before it is refused for at
 * least this long. Far longer than any upstream lookup can last (HLR_TIMEOUT_MS and
 * SIM_TIMEOUT_MS are at most 60 s), so no lookup that started before a SIM swap outlives it.
 */
export const EVICTION_HOLD_S = 300;

export interface Cache {
  /** Reads an entry, and the key's version for a later conditional write. */
  get(key: string): Promise<CacheRead>;
  /**
   * Stores an entry for ttlS seconds only if the key is still at `version` (what a read
   * returned): after a write or an eviction since that read, it stores nothing. Resolves
   * whether it stored. Never shortens the time the key itself stays (so an eviction's hold
   * survives a refill).
   */
  set(key: string, entry: CacheEntry, ttlS: number, version: string | null): Promise<boolean>;
  /**
   * Removes entries at once (SIM-swap events). For EVICTION_HOLD_S the key's version cannot
   * return to one read before the eviction, so no write based on such a read lands.
   */
  delete(keys: readonly string[]): Promise<void>;
}

/** What claiming a txn_id found. `outcome` is the stored answer of a completed request. */
export type TxnClaim =
  | { status: 'claimed' }
  | { status: 'in-flight'; fingerprint: string }
  | { status: 'done'; fingerprint: string; outcome: string };

export interface TxnStore {
  /** Atomically claims a txn_id key for a request fingerprint, unless already held. */
  claim(key: string, fingerprint: string, ttlS: number): Promise<TxnClaim>;
  /** Records the final answer of a claimed txn_id so retries replay it. */
  complete(key: string, fingerprint: string, outcome: string, ttlS: number): Promise<void>;
  /** Frees a claimed txn_id (after a 9999), only if it still holds this fingerprint. */
  release(key: string, fingerprint: string): Promise<void>;
}

export interface RateLimit {
  perSecond: number;
  burst: number;
}

export interface RateDecision {
  allowed: boolean;
  /** When refused: milliseconds until a request would be allowed. */
  retryAfterMs: number;
}

export interface RateLimiter {
  /**
   * Takes `cost` tokens (default 1; a batch costs one per number, capped at the burst) from
   * the bucket of key; refuses, taking nothing, when fewer remain.
   */
  take(key: string, limit: RateLimit, cost?: number): Promise<RateDecision>;
}

export type StoreMode = 'memory' | 'redis' | 'degraded';

/** The state the service keeps: one port, so the in-memory and Redis stores are interchangeable. */
export interface StateStore {
  readonly cache: Cache;
  readonly txns: TxnStore;
  readonly rateLimiter: RateLimiter;
  /** Where state lives right now (degraded: Redis configured but unreachable). */
  mode(): StoreMode;
  close(): Promise<void>;
}
