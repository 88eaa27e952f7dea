import { EventDelivery } from '../ports/event-delivery';
import { WebhookMetrics } from '../ports/webhook-metrics';
import { Delivery } from '../domain/subscription';
import { Logger } from '../../observability/logger';
import { SinkSender } from './http-sink-sender';
import { RetrySettings, SinkSlots, nextDelayMs } from './retry-policy';

export interface MemoryDeliveryDeps {
  send: SinkSender;
  retry: RetrySettings;
  /** WEBHOOK_CONCURRENCY: attempts in flight in all. */
  concurrency: number;
  sinkConcurrency: number;
  /** WEBHOOK_PARTNER_CONCURRENCY: attempts in flight to one partner's sinks. */
  partnerConcurrency: number;
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

/** Wait before re-trying a job whose sink, partner or the instance has no free slot. */
const SLOT_WAIT_MS = 50;
/** Event ids remembered after acceptance, as BullMQ keeps completed jobs: a re-enqueued id within this is a no-op. */
const KNOWN_IDS_MS = 3_600_000;
const KNOWN_IDS_MAX = 10_000;

/**
 * In-process delivery (state in memory, the embedded default): the same retries, backoff,
 * per-sink, per-partner and overall limits, follow-ups and dead letters as on Redis, but
 * everything pending is lost when the process stops (docs/camara.md).
 */
export class MemoryDelivery implements EventDelivery {
  private readonly slots: SinkSlots;
  private readonly partnerSlots: SinkSlots;
  private inFlight = 0;
  private readonly pending = new Set<Pending>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Event id -> when accepted, oldest first (Map keeps insertion order). */
  private readonly known = new Map<string, number>();
  readonly deadLetters: Pending[] = [];
  private closed = false;

  constructor(private readonly deps: MemoryDeliveryDeps) {
    this.slots = new SinkSlots(deps.sinkConcurrency);
    this.partnerSlots = new SinkSlots(deps.partnerConcurrency);
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
    const now = Date.now();
    this.forgetOld(now);
    for (const d of deliveries) {
      if (this.known.has(d.event.id)) continue;
      this.known.set(d.event.id, now);
      const p: Pending = { d, acceptedMs: now, attempts: 0 };
      this.pending.add(p);
      this.later(p, 0);
    }
    return Promise.resolve();
  }

  private forgetOld(now: number): void {
    for (const [id, at] of this.known) {
      if (this.known.size <= KNOWN_IDS_MAX && at > now - KNOWN_IDS_MS) break;
      this.known.delete(id);
    }
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

  /** Takes the instance's, the sink's and the partner's slot, all or none. */
  private take(origin: string, partner: string): boolean {
    if (this.inFlight >= this.deps.concurrency) return false;
    if (!this.slots.tryTake(origin)) return false;
    if (!this.partnerSlots.tryTake(partner)) {
      this.slots.release(origin);
      return false;
    }
    this.inFlight++;
    return true;
  }

  private async attempt(p: Pending): Promise<void> {
    const origin = SinkSlots.origin(p.d.sink);
    if (!this.take(origin, p.d.partner)) {
      this.later(p, SLOT_WAIT_MS + Math.floor(Math.random() * SLOT_WAIT_MS));
      return;
    }
    const started = performance.now();
    let outcome;
    try {
      outcome = await this.deps.send(p.d);
    } finally {
      this.inFlight--;
      this.slots.release(origin);
      this.partnerSlots.release(p.d.partner);
    }
    if (outcome === 'withdrawn') {
      this.finish(p, 'partner_withdrawn');
      return;
    }
    p.attempts++;
    this.deps.metrics.webhookAttempt(outcome, (performance.now() - started) / 1000);
    if (outcome === 'delivered') {
      this.finish(p, 'delivered');
      return;
    }
    const remaining = p.acceptedMs + this.deps.retry.windowMs - Date.now();
    if (remaining <= 0 || outcome === 'refused') {
      this.deadLetter(p, outcome);
      return;
    }
    this.later(p, nextDelayMs(p.attempts, this.deps.retry, remaining));
  }

  /** Its final state; then the event that waited for it (a subscription's last subscription-ended). */
  private finish(p: Pending, outcome: 'delivered' | 'dead_lettered' | 'partner_withdrawn'): void {
    this.pending.delete(p);
    this.deps.metrics.webhookDelivery(outcome);
    if (p.d.followUp) void this.enqueue([p.d.followUp]);
  }

  /** A permanent failure: logged (no credential), kept among the last deadLetterMax, then finished as dead-lettered. */
  private deadLetter(p: Pending, outcome: string, err?: unknown): void {
    if (!this.pending.has(p)) return;
    this.deadLetters.push(p);
    if (this.deadLetters.length > this.deps.deadLetterMax) this.deadLetters.shift();
    // The error's code only: its message could quote a header value.
    const reason = (err as { code?: unknown } | undefined)?.code;
    this.deps.logger.warn({ eventId: p.d.event.id, subscriptionId: p.d.subscriptionId, outcome, attempts: p.attempts, reason }, 'webhook dead-lettered');
    this.finish(p, 'dead_lettered');
  }

  close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    return Promise.resolve();
  }
}
