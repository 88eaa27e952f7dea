import { UpstreamUnavailableError } from '../../errors/domain-errors';
import { EventDelivery } from '../ports/event-delivery';
import { WebhookMetrics } from '../ports/webhook-metrics';
import { Delivery } from '../domain/subscription';
import { Logger } from '../../observability/logger';

export interface OnDemandDeliveryDeps {
  /** Builds the durable delivery (loads BullMQ, opens its connections); called once unless it fails. */
  start(): Promise<EventDelivery>;
  /** Whether any instance (or the CLI) has used the shared queue: then this one must work on it too. */
  queueInUse(): Promise<boolean>;
  /** How often an instance without delivery asks queueInUse. */
  checkEveryMs: number;
  metrics: WebhookMetrics;
  logger: Logger;
}

export type StartReason = 'enqueue' | 'queue in use';

/**
 * The durable delivery, started when this instance first has webhook work: an event to
 * enqueue here, or a queue some instance has used (asked at start, then every checkEveryMs).
 * A service whose partners never subscribe never loads BullMQ: its modules hold 5–6 MB
 * of live heap, and V8 lets the old generation grow to a multiple of the live heap before
 * collecting, which made them about 20 MB of peak RSS under S1 (docs/performance.md).
 * Once started, delivery stays on for the life of the process.
 */
export class OnDemandDelivery implements EventDelivery {
  private started?: Promise<EventDelivery>;
  private timer?: NodeJS.Timeout;
  private closed = false;
  /** After a failed start, events are refused (503) until this time instead of retrying the start each. */
  private retryStartAtMs = 0;

  constructor(private readonly deps: OnDemandDeliveryDeps) {
    // The queue is unused (or not yet known to be used): nothing pending, no dead letters.
    // The started delivery registers its own source, which replaces this one.
    deps.metrics.trackWebhookQueue(() => Promise.resolve({ pending: 0, oldestPendingAgeS: 0, deadLetters: 0 }));
    void this.check();
  }

  /** Whether the durable delivery has been started (tests, logs). */
  get isStarted(): boolean {
    return this.started !== undefined;
  }

  /** A delivery that cannot start is the queue being unavailable: 503, so the sender retries (never a 500). */
  async enqueue(deliveries: Delivery[]): Promise<void> {
    if (this.closed) throw new UpstreamUnavailableError('webhook queue closed');
    if (!this.started && Date.now() < this.retryStartAtMs) throw new UpstreamUnavailableError('webhook queue unavailable');
    let delivery: EventDelivery;
    try {
      delivery = await this.ensureStarted('enqueue');
    } catch (err) {
      throw new UpstreamUnavailableError('webhook queue unavailable', undefined, { cause: err });
    }
    await delivery.enqueue(deliveries);
  }

  private async check(): Promise<void> {
    let inUse = false;
    try {
      inUse = await this.deps.queueInUse();
    } catch {
      // Redis away: the state store reports it; ask again at the next check.
    }
    if (this.closed || this.started) return;
    if (inUse) {
      this.ensureStarted('queue in use').catch(() => { /* logged in ensureStarted; the next check retries */ });
      return;
    }
    this.scheduleCheck();
  }

  /** The next check; one timer at most, so a failed start and a check in progress never make two loops. */
  private scheduleCheck(): void {
    clearTimeout(this.timer);
    if (this.closed) return;
    this.timer = setTimeout(() => { void this.check(); }, this.deps.checkEveryMs);
    this.timer.unref();
  }

  private ensureStarted(reason: StartReason): Promise<EventDelivery> {
    if (!this.started) {
      clearTimeout(this.timer);
      this.deps.logger.info({ reason }, 'webhook delivery starting');
      const started = this.deps.start();
      this.started = started;
      started.catch((err: unknown) => {
        this.deps.logger.error({ err: (err as Error).message }, 'webhook delivery failed to start');
        this.started = undefined;
        this.retryStartAtMs = Date.now() + this.deps.checkEveryMs;
        this.scheduleCheck();
      });
    }
    return this.started;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const delivery = await this.started?.catch(() => undefined);
    await delivery?.close();
  }
}
