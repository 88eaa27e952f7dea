import { Builder } from '@grafana/grafana-foundation-sdk/cog';
import { Panel } from '@grafana/grafana-foundation-sdk/dashboard';
import { quantiles, sel, series, states } from '../panel-kit';

const calls = (matchers = '') => `rate(verify_upstream_calls_total${sel(matchers)}[$__rate_interval])`;

/** Which upstream hurts: its calls, errors, latency and circuit breaker. */
export function upstreamPanels(): Builder<Panel>[] {
  return [
    series({
      title: 'Upstream calls by outcome',
      description: 'Calls per second to the HLR, SIM management and customer records by outcome: ok, not_found (not a subscriber: an answer, not a failure), error (5xx, unreachable, unreadable body), timeout, rejected (refused by the open circuit breaker, never sent).',
      unit: 'reqps',
      stack: true,
      targets: [{ expr: `sum by (upstream, outcome) (${calls()})`, legend: '{{upstream}} {{outcome}}' }],
    }),
    series({
      title: 'Upstream error ratio',
      description: 'Share of calls actually sent that failed or timed out, per upstream (calls refused by an open breaker excluded). VerifyUpstreamErrorRatioHigh fires above 5% (dashed line) for 5 minutes.',
      unit: 'percentunit',
      threshold: 0.05,
      targets: [{
        expr: `sum by (upstream) (${calls('outcome=~"error|timeout"')}) / sum by (upstream) (${calls('outcome!="rejected"')})`,
        legend: '{{upstream}}',
      }],
    }),
    series({
      title: 'Upstream latency p50 / p95 / p99',
      description: 'Duration of the calls sent to each upstream, including those that failed. A timeout shows as the configured HLR_TIMEOUT_MS / SIM_TIMEOUT_MS / CRM_TIMEOUT_MS.',
      unit: 's',
      targets: quantiles('verify_upstream_call_duration_seconds_bucket', 'upstream', '{{upstream}}'),
    }),
    states({
      title: 'Circuit breaker state',
      description: 'Each upstream\'s circuit breaker, worst state across the selected instances: closed (calls flow), half-open (one probe call decides), open (calls refused at once). VerifyCircuitBreakerOpen fires after a minute not closed.',
      unit: 'none',
      states: { 0: ['closed', 'green'], 1: ['half-open', 'yellow'], 2: ['open', 'red'] },
      targets: [{
        expr: `max by (upstream) (verify_circuit_breaker_state${sel('state="open"')} * 2 or verify_circuit_breaker_state${sel('state="half_open"')})`,
        legend: '{{upstream}}',
      }],
    }),
    series({
      title: 'Circuit breaker transitions',
      description: 'Breaker state changes in each interval, by upstream and the state entered. Repeated open / half_open pairs mean the upstream is still failing its probe calls.',
      unit: 'short',
      span: 24,
      height: 6,
      targets: [{
        expr: `sum by (upstream, state) (increase(verify_circuit_breaker_transitions_total${sel()}[$__rate_interval]))`,
        legend: '{{upstream}} → {{state}}',
      }],
    }),
    series({
      title: 'Upstream replies refused',
      description: 'Replies not used, by upstream and reason (CONTRACT §3): too_large (over UPSTREAM_MAX_BODY_BYTES once decoded: a compression bomb, or a reply far larger than a record), other_subscriber (a 200 about another number than asked). Each is also an error call; any at all means an upstream or what sits in front of it misbehaves.',
      unit: 'short',
      span: 24,
      height: 6,
      targets: [{
        expr: `sum by (upstream, reason) (increase(verify_upstream_replies_refused_total${sel()}[$__rate_interval]))`,
        legend: '{{upstream}} {{reason}}',
      }],
    }),
  ];
}
