import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DeliveryOutcome, WebhookMetrics, WebhookQueueStats } from '../subscriptions/ports/webhook-metrics';

const ATTEMPT_OUTCOMES = ['delivered', 'http_error', 'redirect', 'timeout', 'network_error', 'refused'] as const;
const DELIVERY_OUTCOMES: readonly DeliveryOutcome[] = ['delivered', 'dead_lettered', 'partner_withdrawn'];
const ATTEMPT_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Webhook delivery metrics (CONTRACT §8), on the service's registry; labels are fixed sets. */
export class PrometheusWebhookMetrics implements WebhookMetrics {
  private readonly attempts: Counter<'outcome'>;
  private readonly attemptSeconds: Histogram;
  private readonly deliveries: Counter<'outcome'>;
  private source?: () => Promise<WebhookQueueStats>;
  private stats?: Promise<WebhookQueueStats>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.attempts = new Counter({ name: 'verify_webhook_attempts_total', help: 'Webhook delivery attempts by outcome (delivered is a 2xx; redirect, http_error, timeout, network_error, refused are failures).', labelNames: ['outcome'], registers });
    this.attemptSeconds = new Histogram({ name: 'verify_webhook_attempt_duration_seconds', help: 'Time of one webhook delivery attempt.', buckets: ATTEMPT_BUCKETS, registers });
    this.deliveries = new Counter({ name: 'verify_webhook_deliveries_total', help: 'Events that reached a final state per sink: delivered, dead_lettered after the retry window, or partner_withdrawn (dropped: the partner is disabled or lost sim_swap).', labelNames: ['outcome'], registers });
    for (const outcome of ATTEMPT_OUTCOMES) this.attempts.inc({ outcome }, 0);
    for (const outcome of DELIVERY_OUTCOMES) this.deliveries.inc({ outcome }, 0);
    // One read of the queue per scrape serves the three gauges.
    const read = async (pick: (s: WebhookQueueStats) => number): Promise<number> => {
      if (!this.source) return 0;
      this.stats ??= this.source().finally(() => setImmediate(() => { this.stats = undefined; }));
      return pick(await this.stats);
    };
    new Gauge({ name: 'verify_webhook_queue_pending', help: 'Events waiting for delivery (queued, retrying, in flight).', registers,
      async collect() { this.set(await read((s) => s.pending)); } });
    new Gauge({ name: 'verify_webhook_oldest_pending_age_seconds', help: 'Age of the oldest event not yet delivered (0 when none).', registers,
      async collect() { this.set(await read((s) => s.oldestPendingAgeS)); } });
    new Gauge({ name: 'verify_webhook_dead_letters', help: 'Events dead-lettered and kept for replay (verify-customer webhooks dead-letters).', registers,
      async collect() { this.set(await read((s) => s.deadLetters)); } });
  }

  webhookAttempt(outcome: string, seconds: number): void {
    this.attempts.inc({ outcome });
    this.attemptSeconds.observe(seconds);
  }

  webhookDelivery(outcome: DeliveryOutcome): void {
    this.deliveries.inc({ outcome });
  }

  trackWebhookQueue(source: () => Promise<WebhookQueueStats>): void {
    this.source = source;
  }
}
