import { UpstreamUnavailableError } from '../../errors/domain-errors';
import { Clock } from '../../kernel/clock';
import { Metrics } from '../ports/metrics';
import {
  Admission, AdmissionControl, AdmissionRequest, Cache, CacheEntry, CacheRead, QuotaCounter, RateDecision, RateLimit, RateLimiter, StateStore, StoreMode, TxnClaim, TxnStore,
} from '../ports/state-store';
import { Logger } from '../../observability/logger';
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

export interface FallbackDeps {
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  /** No call to the backend may take longer than this (REDIS_COMMAND_TIMEOUT_MS). */
  commandTimeoutMs: number;
  /** How often the backend is checked, while up (to notice a silent loss) and while down. */
  probeIntervalMs: number;
  /** Queued cache evictions kept for Redis at most (the oldest are dropped past it). */
  maxJournalEntries: number;
  /**
   * Heap that txn_ids may take in degraded mode (memory records and journal, estimated); past
   * it, or past the memory store's entry cap, new txn_ids are refused (docs/redis.md).
   */
  maxDegradedTxnBytes: number;
}

class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
}

/**
 * Redis while it answers, process memory while it does not (issue #3, outage behaviour):
 * - cache: bypassed (a miss, no write), so the upstream answers behind its breakers; a memory
 *   cache would keep a number's stale entries on instances that never saw its swap event;
 * - txn_ids and rate limits: the memory store, so uniqueness and limits hold per instance;
 * - swap-event evictions: queued and answered 503, so the sender retries;
 * - what memory did is journaled (redis-outage-journal.ts). When Redis is back, traffic moves
 *   there at once; the journal drains in the background, and a key it still holds is settled
 *   on Redis before its first use, so a txn_id answered during the outage stays answered.
 * While degraded no call waits on Redis at all; a probe every probeIntervalMs (and every
 * "ready" from the client) brings state back to Redis without a restart.
 */
export class FallbackStateStore implements StateStore {
  readonly cache: Cache;
  readonly txns: TxnStore;
  readonly rateLimiter: RateLimiter;
  readonly admission: AdmissionControl;
  /** Per instance while degraded, as rate limits are. */
  readonly quotas: QuotaCounter;
  private up = false;
  private degradedSinceMs: number | undefined;
  private busy = false;
  private checkAgain = false;
  private closed = false;
  private readonly journal: OutageJournal;
  private readonly timer: NodeJS.Timeout;
  private readonly budget: DegradedTxnBudget;

  constructor(private readonly shared: SharedBackend, private readonly memory: MemoryStateStore, private readonly deps: FallbackDeps) {
    let overflowLogged = false;
    this.journal = new OutageJournal(memory.txns, deps.maxJournalEntries, () => {
      if (!overflowLogged) deps.logger.warn('outage journal full: oldest queued evictions dropped, they will not reach Redis');
      overflowLogged = true;
    });
    this.budget = new DegradedTxnBudget(memory.txns, this.journal, deps.maxDegradedTxnBytes, deps);
    this.cache = this.fallbackCache();
    this.txns = this.fallbackTxns();
    this.rateLimiter = {
      take: (key: string, limit: RateLimit, cost?: number): Promise<RateDecision> =>
        this.route(() => shared.rateLimiter.take(key, limit, cost), () => memory.rateLimiter.take(key, limit, cost)),
    };
    this.admission = this.fallbackAdmission();
    this.quotas = { take: (key, limit, end) => this.route(() => shared.quotas.take(key, limit, end), () => memory.quotas.take(key, limit, end)) };
    shared.onConnection((event, err) => this.onConnection(event, err));
    this.timer = setInterval(() => void this.check(), deps.probeIntervalMs);
    this.timer.unref();
    deps.metrics.storeMode(this.mode());
  }

  private reachedRedis!: () => void;
  private readonly firstUp = new Promise<void>((resolve) => { this.reachedRedis = resolve; });

  /**
   * Resolves once Redis has answered for the first time, or after timeoutMs. The composition
   * root waits on it before listening: an instance that has not reached Redis yet would claim
   * txn_ids in its own memory, and in a fleet a retry sent to another instance would then be
   * answered a second time (docs/fleet.md).
   */
  async whenSettled(timeoutMs: number): Promise<StoreMode> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.firstUp, new Promise<void>((resolve) => { timer = setTimeout(resolve, timeoutMs); })]);
    clearTimeout(timer);
    return this.mode();
  }

  mode(): StoreMode {
    return this.up ? 'redis' : 'degraded';
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.shared.close();
    await this.memory.close();
  }

  private fallbackCache(): Cache {
    const { shared, journal } = this;
    // An eviction queued during the outage reaches Redis before the key is used again.
    const settled = async (key: string) => {
      if (journal.hasEviction(key)) await journal.settleEviction(key, shared.cache);
    };
    return {
      get: (key: string): Promise<CacheRead> => this.route(async () => {
        await settled(key);
        return shared.cache.get(key);
      }, async () => ({ entry: null, version: null })),
      set: (key: string, entry: CacheEntry, ttlS: number, version: string | null): Promise<boolean> => this.route(async () => {
        await settled(key);
        return shared.cache.set(key, entry, ttlS, version);
      }, async () => false),
      delete: (keys: readonly string[]): Promise<void> => this.route(() => shared.cache.delete(keys), async () => {
        // Other instances may still read the entries from Redis: do not claim they are gone.
        journal.evicted(keys);
        throw new UpstreamUnavailableError('state store unavailable; eviction queued, retry the event', 1);
      }),
    };
  }

  private fallbackTxns(): TxnStore {
    const { shared, memory, journal } = this;
    const now = () => this.deps.clock.nowMs();
    // What this instance did to a txn_id during the outage reaches Redis before anything else.
    const settled = async (key: string) => {
      if (journal.hasTxn(key)) await journal.settleTxn(key, shared.txns, now());
    };
    return {
      claim: (key: string, fingerprint: string, ttlS: number): Promise<TxnClaim> => this.route(async () => {
        await settled(key);
        return shared.txns.claim(key, fingerprint, ttlS);
      }, async () => {
        this.budget.admitNew(key);
        const claim = await memory.txns.claim(key, fingerprint, ttlS);
        if (claim.status === 'claimed') journal.claimed(key);
        return claim;
      }),
      complete: (key: string, fingerprint: string, outcome: string, ttlS: number): Promise<void> => this.route(async () => {
        await settled(key);
        await shared.txns.complete(key, fingerprint, outcome, ttlS);
      }, async () => {
        // Never refused: the answer is already given, and forgetting it would allow a duplicate.
        await memory.txns.complete(key, fingerprint, outcome, ttlS);
        journal.completed(key);
      }),
      release: (key: string, fingerprint: string): Promise<void> => this.route(async () => {
        await settled(key);
        await shared.txns.release(key, fingerprint);
      }, async () => {
        await memory.txns.release(key, fingerprint);
        journal.released(key, fingerprint, now());
      }),
    };
  }

  private fallbackAdmission(): AdmissionControl {
    const { shared, memory, journal } = this;
    const now = () => this.deps.clock.nowMs();
    return {
      admit: (req: AdmissionRequest): Promise<Admission> => this.route(async () => {
        if (req.txn && journal.hasTxn(req.txn.key)) await journal.settleTxn(req.txn.key, shared.txns, now());
        return shared.admission.admit(req);
      }, async () => {
        // Before the rate limit: a refused request is not charged.
        if (req.txn) this.budget.admitNew(req.txn.key);
        const admission = await memory.admission.admit(req);
        if (req.txn && admission.status === 'admitted' && admission.claim?.status === 'claimed') journal.claimed(req.txn.key);
        return admission;
      }),
    };
  }

  /** Runs op on the shared store while it is up; on unavailability degrades and runs the fallback. */
  private async route<T>(op: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    if (this.up) {
      try {
        return await this.guard(op());
      } catch (err) {
        if (!this.unavailable(err)) {
          // A bug, not an outage: it surfaces (the error handler logs it with its cause, 500)
          // and the store stays on Redis, so no bug can hide behind the fallback.
          this.deps.metrics.stateStoreFailure('command_error');
          throw err;
        }
        this.markDown(err);
      }
    }
    return fallback();
  }

  private unavailable(err: unknown): boolean {
    return err instanceof DeadlineError || this.shared.isUnavailable(err);
  }

  /**
   * The command timeout as a hard deadline: a cluster's redirections and retries included.
   * On a standalone server each command's own timeout is that bound already; a timer and a
   * race per call cost about 5 % of a cache hit's CPU (docs/performance.md), so none is armed.
   */
  private guard<T>(p: Promise<T>): Promise<T> {
    return this.shared.boundsEachCall ? p : this.deadline(p);
  }

  private deadline<T>(p: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DeadlineError(`state store call exceeded ${this.deps.commandTimeoutMs} ms`)), this.deps.commandTimeoutMs);
    });
    p.catch(() => undefined); // a late rejection after the deadline is already handled
    return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
  }

  private onConnection(event: ConnectionEvent, err?: Error): void {
    if (this.closed) return;
    switch (event) {
      case 'ready':
        void this.check();
        return;
      case 'lost':
        this.markDown(err ?? new Error('connection to Redis lost'));
        return;
      case 'suspect':
        // Before the first success an error is the outage itself; afterwards, worth a probe.
        if (!this.up && this.degradedSinceMs === undefined && err) this.markDown(err);
        else void this.check();
        return;
      default: {
        const never: never = event;
        throw new Error(`unknown connection event ${String(never)}`);
      }
    }
  }

  /**
   * Up: confirms Redis still answers. Down: probes it and comes back at once; the journal is
   * then drained in the background, and any key it still holds is settled on first use.
   */
  private async check(): Promise<void> {
    if (this.closed) return;
    if (this.busy) {
      // A "ready" during a failing probe must not wait for the next interval.
      this.checkAgain = true;
      return;
    }
    this.busy = true;
    try {
      await this.deadline(this.shared.probe());
      if (!this.up) this.markUp();
      if (this.journal.size > 0) await this.drain();
    } catch (err) {
      if (this.unavailable(err)) {
        if (!this.up) this.deps.logger.debug({ err: (err as Error).message }, 'Redis still unavailable');
        this.markDown(err);
      } else {
        // A command error would fail every pass the same way: drop the journal, not the service.
        this.deps.logger.error({ err: (err as Error).message, dropped: this.journal.size }, 'outage journal replay failed on a command error; journal dropped');
        this.journal.clear();
      }
    } finally {
      this.busy = false;
      if (this.checkAgain) {
        this.checkAgain = false;
        void this.check();
      }
    }
  }

  /** Once up, nothing new reaches the journal, so this ends; a failure leaves the rest for later. */
  private async drain(): Promise<void> {
    let replayed = 0;
    while (this.up && !this.closed && this.journal.size > 0) {
      replayed += await this.journal.replay(this.shared, this.deps.clock.nowMs(), (p) => this.guard(p));
    }
    if (replayed > 0) this.deps.logger.info({ replayed }, 'outage journal replayed into Redis');
  }

  private markDown(err: unknown): void {
    const wasReported = this.degradedSinceMs !== undefined;
    this.up = false;
    if (wasReported || this.closed) return;
    this.degradedSinceMs = this.deps.clock.nowMs();
    this.deps.metrics.storeMode('degraded');
    this.deps.logger.warn({ err: (err as Error)?.message, store: 'degraded' },
      'Redis unreachable: serving degraded (cache bypassed; txn_id and rate limits in process memory)');
  }

  private markUp(): void {
    this.up = true;
    this.reachedRedis();
    this.deps.metrics.storeMode('redis');
    if (this.degradedSinceMs === undefined) {
      this.deps.logger.info({ store: 'redis' }, 'state store on Redis');
      return;
    }
    const outageMs = this.deps.clock.nowMs() - this.degradedSinceMs;
    this.degradedSinceMs = undefined;
    this.budget.outageOver();
    this.deps.logger.info({ store: 'redis', outageMs, journal: this.journal.size }, 'Redis reachable again: state back on Redis');
  }
}
