import { UpstreamUnavailableError } from '../../errors/domain-errors';
import { Clock } from '../../kernel/clock';
import {
  Admission, AdmissionControl, AdmissionRequest, Cache, CacheEntry, CacheRead, QuotaCounter, RateDecision, RateLimit, RateLimiter, StateStore, TxnClaim, TxnStore,
} from '../ports/state-store';
import { DegradedTxnBudget } from './degraded-txn-budget';
import { MemoryStateStore } from './memory-state-store';
import type { ConnectionEvent } from './redis-connection';
import { OutageJournal } from './redis-outage-journal';

/** The shared store the fallback protects (RedisStateStore), seen through what the fallback needs. */
export interface SharedBackend extends StateStore {
  onConnection(listener: (event: ConnectionEvent, err?: Error) => void): void;
  /** Resolves only when every node of the backend answers. */
  probe(): Promise<void>;
  /** True for "cannot serve now" errors; false for a command's own error, which must surface. */
  isUnavailable(err: unknown): boolean;
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
  route: <T>(op: () => Promise<T>, fallback: () => Promise<T>) => Promise<T>;
}

/*
 * On the hot path (Redis up, nothing journaled for the key) each operation calls Redis
 * directly: no async wrapper, and the fallbacks that capture nothing are built once. These
 * closures run on every request, and their promises were a measurable share of a cache hit's
 * allocations (docs/performance.md).
 */
const cacheMiss = async (): Promise<CacheRead> => ({ entry: null, version: null });
const notStored = async (): Promise<boolean> => false;

export function routedCache(parts: RoutedParts): Cache {
  const { shared, journal, route } = parts;
  // An eviction queued during the outage reaches Redis before the key is used again.
  const settle = (key: string) => journal.settleEviction(key, shared.cache);
  return {
    get: (key: string): Promise<CacheRead> => route(() => journal.hasEviction(key)
      ? settle(key).then(() => shared.cache.get(key)) : shared.cache.get(key), cacheMiss),
    set: (key: string, entry: CacheEntry, ttlS: number, version: string | null): Promise<boolean> => route(() => journal.hasEviction(key)
      ? settle(key).then(() => shared.cache.set(key, entry, ttlS, version)) : shared.cache.set(key, entry, ttlS, version), notStored),
    delete: (keys: readonly string[]): Promise<void> => route(() => shared.cache.delete(keys), async () => {
      // Other instances may still read the entries from Redis: do not claim they are gone.
      journal.evicted(keys);
      throw new UpstreamUnavailableError('state store unavailable; eviction queued, retry the event', 1);
    }),
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
    claim: (key: string, fingerprint: string, ttlS: number): Promise<TxnClaim> => route(async () => {
      await settled(key);
      return shared.txns.claim(key, fingerprint, ttlS);
    }, async () => {
      budget.admitNew(key);
      const claim = await memory.txns.claim(key, fingerprint, ttlS);
      if (claim.status === 'claimed') journal.claimed(key);
      return claim;
    }),
    complete: (key: string, fingerprint: string, outcome: string, ttlS: number): Promise<void> => route(() => journal.hasTxn(key)
      ? journal.settleTxn(key, shared.txns, now()).then(() => shared.txns.complete(key, fingerprint, outcome, ttlS))
      : shared.txns.complete(key, fingerprint, outcome, ttlS), async () => {
      // Never refused: the answer is already given, and forgetting it would allow a duplicate.
      await memory.txns.complete(key, fingerprint, outcome, ttlS);
      journal.completed(key);
    }),
    release: (key: string, fingerprint: string): Promise<void> => route(async () => {
      await settled(key);
      await shared.txns.release(key, fingerprint);
    }, async () => {
      await memory.txns.release(key, fingerprint);
      journal.released(key, fingerprint, now());
    }),
  };
}

export function routedRateLimiter(parts: RoutedParts): RateLimiter {
  const { shared, memory, route } = parts;
  return {
    take: (key: string, limit: RateLimit, cost?: number): Promise<RateDecision> =>
      route(() => shared.rateLimiter.take(key, limit, cost), () => memory.rateLimiter.take(key, limit, cost)),
  };
}

/** Per instance while degraded, as rate limits are. */
export function routedQuotas(parts: RoutedParts): QuotaCounter {
  const { shared, memory, route } = parts;
  return {
    take: (key: string, limit: number, windowEndMs: number): Promise<RateDecision> =>
      route(() => shared.quotas.take(key, limit, windowEndMs), () => memory.quotas.take(key, limit, windowEndMs)),
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
    }),
  };
}
