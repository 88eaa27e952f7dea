/** A cached fact with the moment it was fetched, so freshness is judged by the reader. */
export interface CacheEntry {
  value: string;
  storedAtMs: number;
}

export interface Cache {
  /** Reads an entry; null when absent or expired. */
  get(key: string): Promise<CacheEntry | null>;
  /** Stores an entry that disappears after ttlS seconds. */
  set(key: string, entry: CacheEntry, ttlS: number): Promise<void>;
  /** Removes entries at once (SIM-swap events). */
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
