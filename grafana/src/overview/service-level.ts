import { Builder } from '@grafana/grafana-foundation-sdk/cog';
import { Panel } from '@grafana/grafana-foundation-sdk/dashboard';
import { sel, single } from '../panel-kit';

/** The top line: are partners served, how fast, and is anything the SRE must look at now. */
export function serviceLevelPanels(): Builder<Panel>[] {
  return [
    single({
      title: 'Requests per second',
      description: 'Partner requests answered per second, all operations and interfaces (REST and GraphQL). Probes and scrapes are not counted.',
      unit: 'reqps',
      steps: [[null, 'blue']],
      targets: [{ expr: `sum(rate(verify_requests_total${sel()}[$__rate_interval]))`, legend: 'requests/s' }],
    }),
    single({
      title: '9999 ratio',
      description: 'Share of requests answered with result code 9999 (upstream unavailable or unexpected error). The objective is at most 0.1% over 30 days; red means the current rate would spend the budget.',
      unit: 'percentunit',
      decimals: 3,
      steps: [[null, 'green'], [0.001, 'red']],
      targets: [{
        expr: `sum(rate(verify_requests_total${sel('code="9999"')}[$__rate_interval])) / sum(rate(verify_requests_total${sel()}[$__rate_interval]))`,
        legend: '9999 share',
      }],
    }),
    single({
      title: 'p99 latency',
      description: '99th percentile of the time to answer a request, all operations. Objectives: p95 within 250 ms, p99 within 1 s (VerifyLatencyP99High).',
      unit: 's',
      steps: [[null, 'green'], [0.25, 'yellow'], [1, 'red']],
      targets: [{
        expr: `histogram_quantile(0.99, sum by (le) (rate(verify_request_duration_seconds_bucket${sel()}[$__rate_interval])))`,
        legend: 'p99',
      }],
    }),
    single({
      title: 'Error budget burn (1h)',
      description: 'How many times faster than sustainable the 9999 error budget is being spent over the last hour (recording rule job:verify_requests_9999:ratio_rate1h / 0.001). 1x spends exactly the 30-day budget; 14.4x over 1h pages.',
      unit: 'suffix:x',
      decimals: 1,
      steps: [[null, 'green'], [1, 'yellow'], [14.4, 'red']],
      targets: [{ expr: 'max(job:verify_requests_9999:ratio_rate1h{job=~"$job"}) / 0.001', legend: 'burn rate' }],
    }),
    single({
      title: 'Circuit breakers not closed',
      description: 'Upstreams (HLR, SIM management) whose circuit breaker is open or half-open on any selected instance. While open, KYC answers from stale cache where it can and SIM swap answers 9999.',
      unit: 'short',
      steps: [[null, 'green'], [1, 'red']],
      targets: [{ expr: `sum(max by (upstream) (verify_circuit_breaker_state${sel('state!="closed"')}))`, legend: 'not closed' }],
    }),
    single({
      title: 'Instances up',
      description: 'Instances Prometheus scraped successfully at the last scrape (the up series). Fewer than you run means VerifyScrapeDown is on its way.',
      unit: 'short',
      steps: [[null, 'red'], [1, 'green']],
      targets: [{ expr: `sum(up${sel()})`, legend: 'up' }],
    }),
  ];
}
