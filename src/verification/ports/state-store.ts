import { RateLimit } from '../../partners/partners';

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

/**
 * A txn_id's key is `<partner api key>:<txn_id>`, its rate bucket's key the api key alone: a
 * store may keep one partner's bucket and txn_ids together (one Redis hash slot), and
 * Admission.admit relies on that to charge and claim in one atomic step.
 */
export interface TxnStore {
  /**
   * Atomically claims a txn_id key for a request fingerprint, unless already held. `owner`, a
   * token unique to this request, lets a shared store tell this claim from another instance's
   * claim of the same request (see release).
   */
  claim(key: string, fingerprint: string, ttlS: number, owner?: string): Promise<TxnClaim>;
  /** Records the final answer of a claimed txn_id so retries replay it. */
  complete(key: string, fingerprint: string, outcome: string, ttlS: number): Promise<void>;
  /**
   * Frees a claimed txn_id (after a 9999), only if it still holds this fingerprint's unfinished
   * claim; with `owner`, only the claim that owner made.
   */
  release(key: string, fingerprint: string, owner?: string): Promise<void>;
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

/**
 * Uses counted per key within fixed windows (KYC Match's per-number daily limit, CONTRACT §11).
 * A key is `<partner api key>:<rest>`, as a txn_id's, and names its window (the day in it): a
 * new window is a new key. A count is never forgotten before its window ends, and it holds for
 * every instance sharing the store or none: a store that cannot count that way (Redis down, the
 * memory bound reached) throws UpstreamUnavailableError rather than count somewhere narrower.
 */
export interface QuotaCounter {
  /**
   * Counts one use of key unless `limit` uses are already counted; refused, it counts nothing
   * and retryAfterMs is the time left until windowEndMs, when the key is forgotten.
   */
  take(key: string, limit: number, windowEndMs: number): Promise<RateDecision>;
  /**
   * Gives back one use take counted (never below zero), for a request that learned nothing
   * (its upstream was unavailable). Best effort: when the store cannot, the use stays spent.
   * Absent on a store that cannot give back at all.
   */
  giveBack?(key: string, windowEndMs: number): Promise<void>;
}

/** What admitting a request asks of the store: charge the rate limit, then claim the txn_id. */
export interface AdmissionRequest {
  /** The partner's bucket (key: its api key); absent when the partner has no limit. */
  rate?: { key: string; limit: RateLimit; cost: number };
  /** The txn_id to claim (key: `<api key>:<txn_id>`), only once the charge is allowed. */
  txn?: { key: string; fingerprint: string; ttlS: number; owner?: string };
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
  readonly quotas: QuotaCounter;
  /** Where state lives right now (degraded: Redis configured but unreachable). */
  mode(): StoreMode;
  /** Resolves once the store has reached its backend (or after timeoutMs); stores without one resolve at once. */
  whenSettled?(timeoutMs: number): Promise<StoreMode>;
  close(): Promise<void>;
}
