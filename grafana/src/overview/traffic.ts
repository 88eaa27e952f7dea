import { Builder } from '@grafana/grafana-foundation-sdk/cog';
import { Panel } from '@grafana/grafana-foundation-sdk/dashboard';
import { quantiles, sel, series } from '../panel-kit';

const rate = (matchers = '') => `rate(verify_requests_total${sel(matchers)}[$__rate_interval])`;

/** Rate, errors and duration per operation and interface, and the result codes behind them. */
export function trafficPanels(): Builder<Panel>[] {
  return [
    series({
      title: 'Request rate by operation and interface',
      description: 'Requests answered per second, per operation (kyc, sim_swap, and the signal APIs device_swap, call_forwarding, number_recycling; none for a GraphQL request that named no operation; CAMARA check and retrieve-date count as sim_swap, check-tenure as kyc) and interface (rest: the legacy eai API, graphql, camara).',
      unit: 'reqps',
      targets: [{ expr: `sum by (operation, interface) (${rate()})`, legend: '{{operation}} {{interface}}' }],
    }),
    series({
      title: 'Requests by result code and HTTP status',
      description: 'Requests per second by result code (00000 success, 11111 caller error, 9999 service error) and HTTP status. 401 is authentication, 404 not a subscriber, 409 txn_id conflict, 429 rate limit, 503 upstream unavailable.',
      unit: 'reqps',
      stack: true,
      targets: [{ expr: `sum by (code, status) (${rate()})`, legend: '{{code}} / {{status}}' }],
    }),
    series({
      title: '9999 ratio by operation and interface',
      description: 'Share of requests answered 9999, per operation and interface. The dashed line is the 0.1% objective; above it the error budget is being spent faster than it accrues.',
      unit: 'percentunit',
      threshold: 0.001,
      targets: [{
        expr: `sum by (operation, interface) (${rate('code="9999"')}) / sum by (operation, interface) (${rate()})`,
        legend: '{{operation}} {{interface}}',
      }],
    }),
    series({
      title: 'Error budget burn rate',
      description: 'The 9999 ratio divided by the 0.1% budget, over the alert windows (recording rules job:verify_requests_9999:ratio_rate*). VerifyErrorBudgetBurnFast pages when 1h and 5m are both above 14.4x, or 6h and 30m above 6x.',
      unit: 'suffix:x',
      threshold: 14.4,
      targets: ['5m', '30m', '1h', '6h'].map((w) => ({
        expr: `max(job:verify_requests_9999:ratio_rate${w}{job=~"$job"}) / 0.001`,
        legend: w,
      })),
    }),
    series({
      title: 'Request duration p50 / p95 / p99 by operation and interface',
      description: 'Time to answer, from arrival to the last byte, per operation and interface. Objectives: p95 within 250 ms, p99 within 1 s (dashed line; VerifyLatencyP99High pages after 10 minutes above it). Upstream latency is usually the cause: see the Upstreams row.',
      unit: 's',
      span: 24,
      height: 9,
      threshold: 1,
      targets: quantiles('verify_request_duration_seconds_bucket', 'operation, interface', '{{operation}} {{interface}}'),
    }),
    series({
      title: 'Caller errors (11111) by HTTP status',
      description: 'Requests refused with 11111 per second, by HTTP status: 400 malformed, 401 authentication, 403 operation not allowed, 404 not a subscriber, 409 txn_id conflict, 413 too large, 429 rate limited. These do not spend the error budget.',
      unit: 'reqps',
      stack: true,
      span: 24,
      targets: [{ expr: `sum by (status) (${rate('code="11111"')})`, legend: '{{status}}' }],
    }),
  ];
}
