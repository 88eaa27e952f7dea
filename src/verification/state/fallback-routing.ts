import { UpstreamUnavailableError } from '../../errors/domain-errors';
import { Clock } from '../../kernel/clock';
import { RateLimit } from '../../partners/partners';
import {
  Admission, AdmissionControl, AdmissionRequest, Cache, CacheEntry, CacheRead, QuotaCounter, RateDecision, RateLimiter, StateStore, TxnClaim, TxnStore,
} from '../ports/state-store';
import { DegradedTxnBudget } from './degraded-txn-budget';
import { MemoryStateStore } from './memory-state-store';
import type { ConnectionEvent } from './redis-connection';
import { OutageJournal } from './redis-outage-journal';

/** The shared store the fallback protects (RedisStateStore), seen through what the fallback needs. */
export interface SharedBackend extends StateStore {
  onConnection(listener: (event: ConnectionEvent, err?: Error) => void): void;
  /** Resolves only when every node of the backend answers, each within timeoutMs. */
  probe(timeoutMs: number): Promise<void>;
  /** True for "cannot serve now" errors; false for a command's own error, which must surface. */
  isUnavailable(err: unknown): boolean;
  /** True when a command only outlived its timeout: the connection stands, the outcome is unknown. */
  isTimeout(err: unknown): boolean;
  /**
   * True when a single command's own timeout already bounds a call (standalone: no
   * redirections, no offline queue), so the fallback need not arm a deadline of its own.
   */
  readonly boundsEachCall: boolean;
}

/**
 * What each state operation needs to run on Redis or, while it is down, in memory: route
 * runs the first while Redis is up and the second otherwise (FallbackStateStore decides).
 */
export interface RoutedParts {
  shared: SharedBackend;
  memory: MemoryStateStore;
  journal: OutageJournal;
  budget: DegradedTxnBudget;
  clock: Clock;
  /**
   * op while Redis is up; fallback while it is down; slow when op outlived its deadline on a
   * standing connection (its outcome unknown: Redis may still run it).
   */
  route: <T>(op: () => Promise<T>, fallback: () => Promise<T>, slow: (err: Error) => Promise<T>) => Promise<T>;
}

/*
 * On the hot path (Redis up, nothing journaled for the key) each operation calls Redis
 * directly: no async wrapper, and the fallbacks that capture nothing are built once. These
 * closures run on every request, and their promises were a measurable share of a cache hit's
 * allocations (docs/performance.md).
 */
const cacheMiss = async (): Promise<CacheRead> => ({ entry: null, version: null });
const notStored = async (): Promise<boolean> => false;
// A write already sent runs when Redis gets to it (commands on a connection run in order).
const sent = async (): Promise<void> => {};
/** A slow Redis leaves the outcome unknown: the caller may retry (9999/503, CAMARA 503). */
const slowStore = (what: string) => async (err: Error): Promise<never> => {
  throw new UpstreamUnavailableError(`state store slow; ${what}`, 1, { cause: err });
};
const slowClaim = slowStore('txn_id not claimed, retry');

export function routedCache(parts: RoutedParts): Cache {
  const { shared, journal, route } = parts;
  // An eviction queued during the outage reaches Redis before the key is used again.
  const settle = (key: string) => journal.settleEviction(key, shared.cache);
  return {
    get: (key: string): Promise<CacheRead> => route(() => journal.hasEviction(key)
      ? settle(key).then(() => shared.cache.get(key)) : shared.cache.get(key), cacheMiss, cacheMiss),
    set: (key: string, entry: CacheEntry, ttlS: number, version: string | null): Promise<boolean> => route(() => journal.hasEviction(key)
      ? settle(key).then(() => shared.cache.set(key, entry, ttlS, version)) : shared.cache.set(key, entry, ttlS, version), notStored, notStored),
    delete: (keys: readonly string[]): Promise<void> => route(() => shared.cache.delete(keys), async () => {
      // Other instances may still read the entries from Redis: do not claim they are gone.
      journal.evicted(keys);
      throw new UpstreamUnavailableError('state store unavailable; eviction queued, retry the event', 1);
    }, slowStore('eviction sent, retry the event')),
  };
}

export function routedTxns(parts: RoutedParts): TxnStore {
  const { shared, memory, journal, budget, route } = parts;
  const now = () => parts.clock.nowMs();
  // What this instance did to a txn_id during the outage reaches Redis before anything else.
  const settled = async (key: string) => {
    if (journal.hasTxn(key)) await journal.settleTxn(key, shared.txns, now());
  };
  return {
    claim: (key: string, fingerprint: string, ttlS: number, owner?: string): Promise<TxnClaim> => route(async () => {
      await settled(key);
      return shared.txns.claim(key, fingerprint, ttlS, owner);
    }, async () => {
      budget.admitNew(key);
      const claim = await memory.txns.claim(key, fingerprint, ttlS);
      if (claim.status === 'claimed') journal.claimed(key);
      return claim;
    }, (err) => {
      releaseUnknown(shared, key, fingerprint, owner);
      return slowClaim(err);
    }),
    complete: (key: string, fingerprint: string, outcome: string, ttlS: number): Promise<void> => route(() => journal.hasTxn(key)
      ? journal.settleTxn(key, shared.txns, now()).then(() => shared.txns.complete(key, fingerprint, outcome, ttlS))
      : shared.txns.complete(key, fingerprint, outcome, ttlS), async () => {
      // Never refused: the answer is already given, and forgetting it would allow a duplicate.
      await memory.txns.complete(key, fingerprint, outcome, ttlS);
      journal.completed(key);
    }, sent),
    release: (key: string, fingerprint: string, owner?: string): Promise<void> => route(async () => {
      await settled(key);
      await shared.txns.release(key, fingerprint, owner);
    }, async () => {
      await memory.txns.release(key, fingerprint);
      journal.released(key, fingerprint, now());
    }, sent),
  };
}

export function routedRateLimiter(parts: RoutedParts): RateLimiter {
  const { shared, memory, route } = parts;
  return {
    take: (key: string, limit: RateLimit, cost?: number): Promise<RateDecision> =>
      route(() => shared.rateLimiter.take(key, limit, cost), () => memory.rateLimiter.take(key, limit, cost), slowStore('rate limit not checked, retry')),
  };
}

/** Per instance while degraded, as rate limits are. */
export function routedQuotas(parts: RoutedParts): QuotaCounter {
  const { shared, memory, route } = parts;
  return {
    take: (key: string, limit: number, windowEndMs: number): Promise<RateDecision> =>
      route(() => shared.quotas.take(key, limit, windowEndMs), () => memory.quotas.take(key, limit, windowEndMs), slowStore('allowance not checked, retry')),
  };
}

export function routedAdmission(parts: RoutedParts): AdmissionControl {
  const { shared, memory, journal, budget, route } = parts;
  const now = () => parts.clock.nowMs();
  return {
    admit: (req: AdmissionRequest): Promise<Admission> => route(() => req.txn && journal.hasTxn(req.txn.key)
      ? journal.settleTxn(req.txn.key, shared.txns, now()).then(() => shared.admission.admit(req))
      : shared.admission.admit(req), async () => {
      // Before the rate limit: a refused request is not charged.
      if (req.txn) budget.admitNew(req.txn.key);
      const admission = await memory.admission.admit(req);
      if (req.txn && admission.status === 'admitted' && admission.claim?.status === 'claimed') journal.claimed(req.txn.key);
      return admission;
    }, (err) => {
      if (req.txn) releaseUnknown(shared, req.txn.key, req.txn.fingerprint, req.txn.owner);
      return slowClaim(err);
    }),
  };
}

/**
 * A claim whose answer never came may still run on Redis: a release sent after it on the same
 * connection runs after it, and frees the txn_id only if the claim was made and is this
 * request's own (its owner token), so a partner's retry is not refused as in flight, and a
 * claim another instance holds for the same request is never freed. Without an owner (a store
 * that cannot tell claims apart) nothing is released: the claim expires (TXN_IN_FLIGHT_TTL_S).
 */
function releaseUnknown(shared: SharedBackend, key: string, fingerprint: string, owner: string | undefined): void {
  if (owner === undefined) return;
  shared.txns.release(key, fingerprint, owner).catch(() => undefined);
}
