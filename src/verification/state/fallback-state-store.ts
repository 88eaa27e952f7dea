import { Clock } from '../../kernel/clock';
import { Metrics } from '../ports/metrics';
import { AdmissionControl, Cache, QuotaCounter, RateLimiter, StateStore, StoreMode, TxnStore } from '../ports/state-store';
import { Logger } from '../../observability/logger';
import { DegradedTxnBudget } from './degraded-txn-budget';
import { RoutedParts, SharedBackend, routedAdmission, routedCache, routedQuotas, routedRateLimiter, routedTxns } from './fallback-routing';
import { MemoryStateStore } from './memory-state-store';
import type { ConnectionEvent } from './redis-connection';
import { OutageJournal } from './redis-outage-journal';

export type { SharedBackend } from './fallback-routing';

export interface FallbackDeps {
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  /** No call to the backend may take longer than this (REDIS_COMMAND_TIMEOUT_MS). */
  commandTimeoutMs: number;
  /**
   * How long the health check keeps asking before it judges Redis unavailable
   * (REDIS_HEALTH_TIMEOUT_MS): a command that outlives commandTimeoutMs is only slow.
   */
  healthTimeoutMs: number;
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
 * Redis while it answers, process memory while it does not, so a Redis outage degrades answers instead of failing them:
 * - cache: bypassed (a miss, no write), so the upstream answers behind its breakers; a memory
 *   cache would keep a number's stale entries on instances that never saw its swap event;
 * - txn_ids and rate limits: the memory store, so uniqueness and limits hold per instance;
 * - swap-event evictions: queued and answered 503, so the sender retries;
 * - what memory did is journaled (redis-outage-journal.ts). When Redis is back, traffic moves
 *   there at once; the journal drains in the background, and a key it still holds is settled
 *   on Redis before its first use, so a txn_id answered during the outage stays answered.
 * While degraded no call waits on Redis at all; a probe every probeIntervalMs (and every
 * "ready" from the client) brings state back to Redis without a restart.
 *
 * Slow is not down (CONTRACT §1.4): a command that outlives the command timeout while the
 * connection stands does not move state to memory, since the other instances still use Redis
 * and a txn_id claimed in this instance's memory could be answered fresh by them too. The call
 * gets its operation's answer for "outcome unknown" (a cache miss, or 9999/503 for a claim,
 * whose claim is then released) and a health check starts; only a connection lost or a health
 * check unanswered for healthTimeoutMs makes the store degraded.
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
    const parts: RoutedParts = { shared, memory, journal: this.journal, budget: this.budget, clock: deps.clock, route: (op, fallback, slow) => this.route(op, fallback, slow) };
    this.cache = routedCache(parts);
    this.txns = routedTxns(parts);
    this.rateLimiter = routedRateLimiter(parts);
    this.admission = routedAdmission(parts);
    this.quotas = routedQuotas(parts);
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

  /**
   * Runs op on the shared store while it is up; on unavailability degrades and runs the fallback.
   * A plain promise chain rather than an async function: this runs three times per cache hit,
   * and the async frame and its extra promise were measurable allocations (docs/performance.md).
   */
  private route<T>(op: () => Promise<T>, fallback: () => Promise<T>, slow: (err: Error) => Promise<T>): Promise<T> {
    if (!this.up) return attempt(fallback);
    return this.guard(attempt(op)).then(undefined, (err: unknown) => this.routeFailed(err, fallback, slow));
  }

  private routeFailed<T>(err: unknown, fallback: () => Promise<T>, slow: (err: Error) => Promise<T>): Promise<T> {
    if (this.timedOut(err)) {
      this.deps.metrics.stateStoreFailure('timeout');
      void this.check();
      return slow(err as Error);
    }
    if (!this.unavailable(err)) {
      // A bug, not an outage: it surfaces (the error handler logs it with its cause, 500)
      // and the store stays on Redis, so no bug can hide behind the fallback.
      this.deps.metrics.stateStoreFailure('command_error');
      throw err;
    }
    this.markDown(err);
    return fallback();
  }

  private unavailable(err: unknown): boolean {
    return err instanceof DeadlineError || this.shared.isUnavailable(err);
  }

  /** The call outlived its deadline on a connection that has not failed: its outcome is unknown. */
  private timedOut(err: unknown): boolean {
    return err instanceof DeadlineError || this.shared.isTimeout(err);
  }

  /**
   * The command timeout as a hard deadline: a cluster's redirections and retries included.
   * On a standalone server each command's own timeout is that bound already; a timer and a
   * race per call cost about 5 % of a cache hit's CPU (docs/performance.md), so none is armed.
   */
  private guard<T>(p: Promise<T>): Promise<T> {
    return this.shared.boundsEachCall ? p : this.deadline(p);
  }

  private deadline<T>(p: Promise<T>, timeoutMs = this.deps.commandTimeoutMs): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      // Rejected from setImmediate, after the loop's I/O phase: when the event loop was busy past
      // the deadline (a loaded machine), a reply already in the socket is read first and wins the
      // race, instead of a timer that ran first calling an answered command slow.
      timer = setTimeout(() => setImmediate(() => reject(new DeadlineError(`state store call exceeded ${timeoutMs} ms`))), timeoutMs);
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
      await this.healthy();
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

  /**
   * The health check: every node answers a probe within healthTimeoutMs (a late answer proves
   * the connection serves; only silence or a failed connection fails it). One criterion both
   * ways: an instance that went to memory during a hiccup comes back as soon as Redis answers
   * at all, even slowly, since every moment in memory is a moment its txn_ids are its own.
   */
  private healthy(): Promise<void> {
    const timeoutMs = this.deps.healthTimeoutMs;
    return this.deadline(this.shared.probe(timeoutMs), timeoutMs);
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

/** fn's promise, or its synchronous throw as a rejection (as an async function would give). */
function attempt<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return fn();
  } catch (err) {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes on what fn threw, as an async function would
    return Promise.reject(err);
  }
}
