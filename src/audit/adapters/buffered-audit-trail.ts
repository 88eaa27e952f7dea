import { AuditRecord, AuditTrail } from '../ports/audit-trail';
import { Clock } from '../../kernel/clock';
import { Logger } from '../../observability/logger';
import { AuditMetrics } from './audit-metrics';
import { AuditSink } from './audit-sink';
import { AuditJournal } from './audit-journal';
import { AuditSpool } from './audit-spool';
import { withTimeout } from './with-timeout';

export interface AuditWriterSettings {
  /** Records per write (AUDIT_BATCH_MAX); a full batch is written at once. */
  batchMax: number;
  /** Longest a record waits in memory before its batch is written (AUDIT_FLUSH_MS). */
  flushMs: number;
  /** Records held in memory awaiting the store (AUDIT_BUFFER_MAX); beyond it, batches go to the spool. */
  bufferMax: number;
  /** A store write slower than this counts as failed; its batch is spooled (AUDIT_WRITE_TIMEOUT_MS). */
  writeTimeoutMs: number;
  /** How often a replay of the spool is tried while the store is unavailable. */
  retryMs: number;
  /** How often retention and partition maintenance run. */
  maintenanceMs: number;
  /** Longest the first maintenance (schema migration included) may hold up start; past it the trail starts degraded. */
  startDeadlineMs: number;
}

export interface BufferedAuditTrailDeps {
  sink: AuditSink;
  spool: AuditSpool;
  /** Where records the store refuses for their content go (AUDIT_DIR/audit-quarantine.jsonl). */
  quarantine: AuditSpool;
  /** The write-ahead journal: a record is in it before its answer is sent (absent in unit tests of batching alone). */
  journal?: AuditJournal;
  metrics: AuditMetrics;
  logger: Logger;
  clock: Clock;
  settings: AuditWriterSettings;
}

/** `file` or `postgres` while records reach the store; `degraded` while they go to the spool. */
export type AuditMode = 'file' | 'postgres' | 'degraded';

/**
 * Audit records off the request path (CONTRACT §9): record() only appends to memory; batches
 * are written by size or age, one at a time and in order. A batch the store refuses, or does
 * not take in time, goes to the local spool, and so does every batch after it until the spool
 * has been replayed into the store, in order. Replays are idempotent (the store ignores ids it
 * has), so a write that timed out but did land is not duplicated. Records are dropped only
 * when even the spool fails, or memory holds twice AUDIT_BUFFER_MAX; both are counted and
 * logged.
 */
export class BufferedAuditTrail implements AuditTrail {
  private buffer: AuditRecord[] = [];
  /** Records taken from the buffer whose batch is not yet written or spooled. */
  private queued = 0;
  private chain: Promise<void> = Promise.resolve();
  private spooling = false;
  private spoolOffset = 0;
  private spoolBytes = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private maintenanceTimer: NodeJS.Timeout | undefined;
  private lastDropLogMs = 0;
  private closed = false;

  constructor(private readonly deps: BufferedAuditTrailDeps) {
    deps.metrics.trackAuditBacklog(() => ({
      buffered: this.buffer.length + this.queued, spooled: this.spoolBytes, degraded: this.spooling,
    }));
  }

  /** Picks up a spool left by an earlier run, and starts maintenance. */
  async start(): Promise<void> {
    await this.deps.spool.check();
    await this.recoverJournal();
    this.spoolBytes = await this.deps.spool.size();
    if (this.spoolBytes > 0) {
      this.deps.logger.warn({ bytes: this.spoolBytes }, 'audit spool from an earlier run: replaying it into the audit store');
      this.spooling = true;
      this.scheduleRetry(0);
    }
    // A store that accepts connections and never answers must not keep the service from listening:
    // past the deadline the trail starts degraded, and the first maintenance finishes (or fails) in the background.
    const first = this.maintain();
    const ready = await Promise.race([first, new Promise<false>((r) => setTimeout(() => r(false), this.deps.settings.startDeadlineMs).unref())]);
    if (!ready) this.startSpooling('audit store unavailable at start');
    this.maintenanceTimer = setInterval(() => void this.maintain(), this.deps.settings.maintenanceMs);
    this.maintenanceTimer.unref();
  }

  mode(): AuditMode {
    return this.spooling ? 'degraded' : this.deps.sink.kind;
  }

  healthy(): boolean {
    return !this.spooling;
  }

  /** Resolves once the record is in the journal (it survives the process's death); never rejects. */
  record(entry: AuditRecord): Promise<void> {
    const { bufferMax, batchMax, flushMs } = this.deps.settings;
    const held = this.buffer.length + this.queued;
    if (held >= 2 * bufferMax) {
      this.dropped(1, 'audit memory buffer full and the spool is not keeping up');
      return Promise.resolve();
    }
    this.buffer.push(entry);
    if (held + 1 >= bufferMax && !this.spooling) {
      // The store is too slow for the traffic: stop waiting on it before memory runs out.
      this.startSpooling('audit store too slow: buffer full');
    }
    if (this.buffer.length >= batchMax) {
      void this.flush();
    } else if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = undefined;
        void this.flush();
      }, flushMs);
      this.flushTimer.unref();
    }
    return this.deps.journal?.append(entry) ?? Promise.resolve();
  }

  /** Hands what is buffered to the writer; resolves when it and everything before it is written or spooled. */
  flush(): Promise<void> {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
    }
    if (this.buffer.length === 0) return this.chain;
    const batch = this.buffer;
    this.buffer = [];
    this.queued += batch.length;
    return this.enqueue(async () => {
      try {
        await this.deliver(batch);
      } finally {
        this.queued -= batch.length;
      }
    });
  }

  /** SIGTERM: writes (or spools) everything buffered, then closes the store. A spool left over is replayed at the next start. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of [this.flushTimer, this.retryTimer]) clearTimeout(t);
    clearInterval(this.maintenanceTimer);
    this.flushTimer = undefined;
    this.retryTimer = undefined;
    await this.flush();
    await this.deps.journal?.close();
    await this.deps.sink.close();
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(step).catch((err: unknown) => {
      this.deps.logger.error({ err: (err as Error).message }, 'audit writer step failed');
    });
    return this.chain;
  }

  private async deliver(batch: AuditRecord[]): Promise<void> {
    if (!this.spooling) {
      try {
        const refused = await withTimeout(this.deps.sink.write(batch), this.deps.settings.writeTimeoutMs);
        this.deps.metrics.auditRecords('written', batch.length - refused.length);
        await this.toQuarantine(refused);
        this.deps.journal?.ack(batch);
        return;
      } catch (err) {
        this.startSpooling(`audit store unavailable: ${(err as Error).message}`);
      }
    }
    // Records the spool could not take stay in the journal: the next start replays them.
    if (await this.toSpool(batch)) this.deps.journal?.ack(batch);
  }

  /** An earlier run's journal (killed before its records were written): into the spool, replayed like any spool. */
  private async recoverJournal(): Promise<void> {
    const journal = this.deps.journal;
    if (!journal) return;
    const { records, unreadable, files } = await journal.recover();
    if (files.length === 0) return;
    await this.deps.spool.append(records);
    await journal.discard(files);
    if (unreadable > 0) this.dropped(unreadable, 'unreadable lines in the audit journal');
    this.deps.logger.warn({ records: records.length }, 'audit journal from an earlier run: its records are replayed into the audit store');
  }

  private startSpooling(reason: string): void {
    if (!this.spooling) this.deps.logger.warn({ reason }, 'audit records go to the local spool until the store takes them again');
    this.spooling = true;
    this.scheduleRetry(this.deps.settings.retryMs);
  }

  private async toSpool(batch: AuditRecord[]): Promise<boolean> {
    try {
      await this.deps.spool.append(batch);
    } catch (err) {
      this.dropped(batch.length, `audit spool failed: ${(err as Error).message}`);
      return false;
    }
    this.deps.metrics.auditRecords('spooled', batch.length);
    this.spoolBytes = await this.deps.spool.size().catch(() => this.spoolBytes);
    return true;
  }

  /**
   * Records the store refused for their content (it is up, and took the rest of the batch):
   * retrying them would fail forever and hold back every record behind them, so they are set
   * aside in the quarantine file for an operator, counted and logged (a count, never a record).
   */
  private async toQuarantine(records: readonly AuditRecord[]): Promise<void> {
    if (records.length === 0) return;
    try {
      await this.deps.quarantine.append(records);
    } catch (err) {
      this.dropped(records.length, `audit quarantine failed: ${(err as Error).message}`);
      return;
    }
    this.deps.metrics.auditRecords('quarantined', records.length);
    this.deps.logger.error({ count: records.length, file: this.deps.quarantine.path },
      'audit records refused by the store for their content: quarantined, the rest written');
  }

  private dropped(count: number, reason: string): void {
    this.deps.metrics.auditRecords('dropped', count);
    const now = Date.now();
    // Logged at most once a second: a flood of identical lines would bury the cause.
    if (now - this.lastDropLogMs >= 1000) {
      this.lastDropLogMs = now;
      this.deps.logger.error({ count, reason }, 'audit records dropped');
    }
  }

  private scheduleRetry(delayMs: number): void {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.enqueue(() => this.replayStep());
    }, delayMs);
    this.retryTimer.unref();
  }

  /**
   * Replays one chunk of the spool, then queues the next step behind whatever batches arrived
   * meanwhile (they went to the spool too, so order holds). An empty spool ends degraded mode.
   */
  private async replayStep(): Promise<void> {
    if (this.closed) return;
    const size = await this.deps.spool.size();
    if (this.spoolOffset >= size) {
      // Nothing left to replay: trust the store again only once it answers.
      try {
        await withTimeout(this.deps.sink.ping(), this.deps.settings.writeTimeoutMs);
      } catch {
        this.scheduleRetry(this.deps.settings.retryMs);
        return;
      }
      await this.deps.spool.clear();
      this.spoolOffset = 0;
      this.spoolBytes = 0;
      if (this.spooling) this.deps.logger.info('audit spool replayed: records go to the audit store again');
      this.spooling = false;
      return;
    }
    const chunk = await this.deps.spool.read(this.spoolOffset, this.deps.settings.batchMax);
    if (chunk.records.length > 0) {
      let refused: AuditRecord[];
      try {
        refused = await withTimeout(this.deps.sink.write(chunk.records), this.deps.settings.writeTimeoutMs);
      } catch {
        this.scheduleRetry(this.deps.settings.retryMs);
        return;
      }
      this.deps.metrics.auditRecords('replayed', chunk.records.length - refused.length);
      await this.toQuarantine(refused);
    }
    if (chunk.unreadable > 0) this.dropped(chunk.unreadable, 'unreadable lines in the audit spool');
    this.spoolOffset = chunk.nextOffset;
    void this.enqueue(() => this.replayStep());
  }

  private async maintain(): Promise<boolean> {
    try {
      await this.deps.sink.maintain(this.deps.clock.nowMs());
      return true;
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message }, 'audit maintenance failed; retried at the next run');
      return false;
    }
  }
}
