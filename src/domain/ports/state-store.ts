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

/**
 * A txn_id's key is `<partner api key>:<txn_id>`, its rate bucket's key the api key alone: a
 * store may keep one partner's bucket and txn_ids together (one Redis hash slot), and
 * Admission.admit relies on that to charge and claim in one atomic step.
 */
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
   * Takes `cost` tokens (default 1; a batch costs one per number) from the bucket of key;
   * refuses, taking nothing, when fewer remain. A cost above the burst is always refused.
   */
  take(key: string, limit: RateLimit, cost?: number): Promise<RateDecision>;
}

/** What admitting a request asks of the store: charge the rate limit, then claim the txn_id. */
export interface AdmissionRequest {
  /** The partner's bucket (key: its api key); absent when the partner has no limit. */
  rate?: { key: string; limit: RateLimit; cost: number };
  /** The txn_id to claim (key: `<api key>:<txn_id>`), only once the charge is allowed. */
  txn?: { key: string; fingerprint: string; ttlS: number };
}

/** `claim` is present exactly when a txn was asked for and the rate limit allowed it. */
export type Admission =
  | { status: 'refused'; retryAfterMs: number }
  | { status: 'admitted'; claim?: TxnClaim };

export interface AdmissionControl {
  /**
   * Rate limit, then txn_id claim, as one step (one round trip on Redis): a refused request
   * claims nothing; an admitted one gets what its claim found.
   */
  admit(req: AdmissionRequest): Promise<Admission>;
}

export type StoreMode = 'memory' | 'redis' | 'degraded';

/** The state the service keeps: one port, so the in-memory and Redis stores are interchangeable. */
export interface StateStore {
  readonly cache: Cache;
  readonly txns: TxnStore;
  readonly rateLimiter: RateLimiter;
  readonly admission: AdmissionControl;
  /** Where state lives right now (degraded: Redis configured but unreachable). */
  mode(): StoreMode;
  close(): Promise<void>;
}
