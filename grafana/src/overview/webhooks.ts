import { Builder } from '@grafana/grafana-foundation-sdk/cog';
import { Panel } from '@grafana/grafana-foundation-sdk/dashboard';
import { sel, series, single } from '../panel-kit';

/** SIM swap subscriptions (CONTRACT §8): are partners told of swaps, and how late? */
export function webhookPanels(): Builder<Panel>[] {
  return [
    series({
      title: 'Webhook attempts by outcome',
      description: 'Delivery attempts per second to partners\' sinks: delivered (2xx), http_error (4xx/5xx), redirect (3xx, never followed), timeout (WEBHOOK_TIMEOUT_MS), network_error, refused (the sink now resolves to an address CONTRACT §8 refuses). Failures are retried with backoff.',
      unit: 'reqps',
      stack: true,
      targets: [{ expr: `sum by (outcome) (rate(verify_webhook_attempts_total${sel()}[$__rate_interval]))`, legend: '{{outcome}}' }],
    }),
    series({
      title: 'Events delivered and dead-lettered',
      description: 'Events that reached their end per interval: delivered, or dead_lettered when WEBHOOK_RETRY_WINDOW_S ran out (VerifyWebhookDeadLetters fires; list and replay with `verify-customer webhooks`).',
      unit: 'short',
      targets: [{ expr: `sum by (outcome) (increase(verify_webhook_deliveries_total${sel()}[$__rate_interval]))`, legend: '{{outcome}}' }],
    }),
    series({
      title: 'Webhook backlog and oldest pending event',
      description: 'Events waiting for delivery (queued, retrying or in flight; on Redis every instance reports the shared queue, hence max) and the age of the oldest. VerifyWebhookBacklogOld fires when it passes 15 minutes.',
      unit: 'short',
      targets: [
        { expr: `max(verify_webhook_queue_pending${sel()})`, legend: 'pending events' },
        { expr: `max(verify_webhook_oldest_pending_age_seconds${sel()})`, legend: 'oldest pending (s)' },
      ],
    }),
    series({
      title: 'Webhook attempt duration p50 / p99',
      description: 'Time of one delivery attempt, connect to last byte; a hanging sink shows as WEBHOOK_TIMEOUT_MS.',
      unit: 's',
      targets: [0.5, 0.99].map((q) => ({
        expr: `histogram_quantile(${q}, sum by (le) (rate(verify_webhook_attempt_duration_seconds_bucket${sel()}[$__rate_interval])))`,
        legend: `p${q * 100}`,
      })),
    }),
    single({
      title: 'Dead letters kept',
      description: 'Events whose retry window ran out and that wait for an operator: `verify-customer webhooks dead-letters`, then `webhooks replay`.',
      unit: 'short',
      steps: [[null, 'green'], [1, 'red']],
      targets: [{ expr: `max(verify_webhook_dead_letters${sel()})`, legend: 'dead letters' }],
    }),
  ];
}
