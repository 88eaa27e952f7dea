/** Final fate of one event for one sink; partner_withdrawn: dropped unsent, its partner disabled or without sim_swap. */
export type DeliveryOutcome = 'delivered' | 'dead_lettered' | 'partner_withdrawn';

/** What the delivery adapters report; the Prometheus module implements it. */
export interface WebhookMetrics {
  /** One attempt ended with this outcome (delivered, http_error, redirect, timeout, network_error, refused). */
  webhookAttempt(outcome: string, seconds: number): void;
  webhookDelivery(outcome: DeliveryOutcome): void;
  /** Gauges read at scrape time: pending events, age of the oldest, dead letters kept. */
  trackWebhookQueue(source: () => Promise<WebhookQueueStats>): void;
}

export interface WebhookQueueStats {
  pending: number;
  oldestPendingAgeS: number;
  deadLetters: number;
}

export const noopWebhookMetrics: WebhookMetrics = { webhookAttempt() {}, webhookDelivery() {}, trackWebhookQueue() {} };
