import { EventDelivery } from '../../domain/ports/event-delivery';
import { WebhookMetrics } from '../../domain/ports/webhook-metrics';
import { Delivery } from '../../domain/subscriptions/subscription';
import { Logger } from '../../observability/logger';
import { SinkSender } from './http-sink-sender';
import { RetrySettings, SinkSlots, nextDelayMs } from './retry-policy';

export interface MemoryDeliveryDeps {
  send: SinkSender;
  retry: RetrySettings;
  sinkConcurrency: number;
  /** WEBHOOK_DEAD_LETTER_MAX: dead letters kept (the oldest dropped first). */
  deadLetterMax: number;
  metrics: WebhookMetrics;
  logger: Logger;
}

interface Pending {
  d: Delivery;
  acceptedMs: number;
  attempts: number;
}

/** Wait before re-trying a job whose sink has no free slot. */
const SLOT_WAIT_MS = 50;

/**
 * In-process delivery (state in memory, the embedded default): the same retries, backoff,
 * per-sink limit and dead letters as on Redis, but everything pending is lost when the
 * process stops (docs/camara.md).
 */
export class MemoryDelivery implements EventDelivery {
  private readonly slots: SinkSlots;
  private readonly pending = new Set<Pending>();
  private readonly timers = new Set<NodeJS.Timeout>();
  readonly deadLetters: Pending[] = [];
  private closed = false;

  constructor(private readonly deps: MemoryDeliveryDeps) {
    this.slots = new SinkSlots(deps.sinkConcurrency);
    deps.metrics.trackWebhookQueue(() => {
      let oldest = Infinity;
      for (const p of this.pending) oldest = Math.min(oldest, p.acceptedMs);
      return Promise.resolve({
        pending: this.pending.size,
        oldestPendingAgeS: oldest === Infinity ? 0 : (Date.now() - oldest) / 1000,
        deadLetters: this.deadLetters.length,
      });
    });
  }

  enqueue(deliveries: Delivery[]): Promise<void> {
    for (const d of deliveries) {
      const p: Pending = { d, acceptedMs: Date.now(), attempts: 0 };
      this.pending.add(p);
      this.later(p, 0);
    }
    return Promise.resolve();
  }

  private later(p: Pending, ms: number): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      // Caught, so that no attempt can end the process with an unhandled rejection.
      this.attempt(p).catch((err: unknown) => this.deadLetter(p, 'refused', err));
    }, ms);
    this.timers.add(t);
  }

  private async attempt(p: Pending): Promise<void> {
    const origin = SinkSlots.origin(p.d.sink);
    if (!this.slots.tryTake(origin)) {
      this.later(p, SLOT_WAIT_MS + Math.floor(Math.random() * SLOT_WAIT_MS));
      return;
    }
    const started = performance.now();
    let outcome;
    try {
      outcome = await this.deps.send(p.d);
    } finally {
      this.slots.release(origin);
    }
    p.attempts++;
    this.deps.metrics.webhookAttempt(outcome, (performance.now() - started) / 1000);
    if (outcome === 'delivered') {
      this.pending.delete(p);
      this.deps.metrics.webhookDelivery('delivered');
      return;
    }
    const remaining = p.acceptedMs + this.deps.retry.windowMs - Date.now();
    if (remaining <= 0 || outcome === 'refused') {
      this.deadLetter(p, outcome);
      return;
    }
    this.later(p, nextDelayMs(p.attempts, this.deps.retry, remaining));
  }

  /** A permanent failure: counted, logged (no credential), kept among the last deadLetterMax. */
  private deadLetter(p: Pending, outcome: string, err?: unknown): void {
    if (!this.pending.delete(p)) return;
    this.deadLetters.push(p);
    if (this.deadLetters.length > this.deps.deadLetterMax) this.deadLetters.shift();
    this.deps.metrics.webhookDelivery('dead_lettered');
    // The error's code only: its message could quote a header value.
    const reason = (err as { code?: unknown } | undefined)?.code;
    this.deps.logger.warn({ eventId: p.d.event.id, subscriptionId: p.d.subscriptionId, outcome, attempts: p.attempts, reason }, 'webhook dead-lettered');
  }

  close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    return Promise.resolve();
  }
}
