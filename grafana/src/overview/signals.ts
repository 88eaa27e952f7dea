import { Builder } from '@grafana/grafana-foundation-sdk/cog';
import { Panel } from '@grafana/grafana-foundation-sdk/dashboard';
import { sel, series } from '../panel-kit';

/** The operations of the fraud and identity signal APIs (CONTRACT §11), as the request metrics label them. */
const SIGNAL_OPERATIONS = 'operation=~"device_swap|call_forwarding|number_recycling"';

const rate = (matchers: string) => `rate(verify_requests_total${sel(matchers)}[$__rate_interval])`;

/** Device Swap, Call Forwarding Signal and Number Recycling: how much, how well, how fast. */
export function signalPanels(): Builder<Panel>[] {
  return [
    series({
      title: 'Signal API requests by operation and result',
      description: 'Requests per second to Device Swap (device_swap), Call Forwarding Signal (call_forwarding) and Number Recycling (number_recycling), CAMARA and the GraphQL signals query, by result code: 00000 answered, 11111 caller error (400 bad body, 403 scope, 404 not a subscriber, 422 never in a device or start unknown, 429), 9999 service error (503 HLR unavailable).',
      unit: 'reqps',
      stack: true,
      targets: [{ expr: `sum by (operation, code) (${rate(SIGNAL_OPERATIONS)})`, legend: '{{operation}} {{code}}' }],
    }),
    series({
      title: 'Signal API duration p95 by operation',
      description: 'Time to answer a signal API request, 95th percentile per operation. These answer from the HLR facts the KYC cache holds, so a miss costs one HLR call (see the Upstreams row).',
      unit: 's',
      threshold: 1,
      targets: [{
        expr: `histogram_quantile(0.95, sum by (le, operation) (rate(verify_request_duration_seconds_bucket${sel(SIGNAL_OPERATIONS)}[$__rate_interval])))`,
        legend: 'p95 {{operation}}',
      }],
    }),
  ];
}
