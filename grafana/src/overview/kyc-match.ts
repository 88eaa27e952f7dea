import { Builder } from '@grafana/grafana-foundation-sdk/cog';
import { Panel } from '@grafana/grafana-foundation-sdk/dashboard';
import { sel, series } from '../panel-kit';

const CRM = 'upstream="crm"';

/** KYC Match (CONTRACT §11), KYC Age Verification (§13, same records and allowance) and the customer-records system they ask. */
export function kycMatchPanels(): Builder<Panel>[] {
  return [
    series({
      title: 'KYC Match answers by status',
      description: 'POST /kyc-match/v0.4/match answers per second by HTTP status and result code: 200 compared, 400 bad body, 403 idDocument refused or wrong token context, 404 not a subscriber, 429 over a rate limit, 503 customer records unavailable.',
      unit: 'reqps',
      stack: true,
      targets: [{
        expr: `sum by (status, code) (rate(verify_requests_total${sel('operation="kyc_match"')}[$__rate_interval]))`,
        legend: '{{status}} {{code}}',
      }],
    }),
    series({
      title: 'KYC Age Verification answers by status',
      description: 'POST /kyc-age-verification/v0.2/verify answers per second by HTTP status and result code: 200 answered, 400 bad body (OUT_OF_RANGE: ageThreshold outside 0–120), 403 scope, 404 not a subscriber, 422 identifier missing or unnecessary, 429 over a limit (the per-number allowance it shares with KYC Match), 503 customer records unavailable.',
      unit: 'reqps',
      stack: true,
      targets: [{
        expr: `sum by (status, code) (rate(verify_requests_total${sel('operation="age_verification"')}[$__rate_interval]))`,
        legend: '{{status}} {{code}}',
      }],
    }),
    series({
      title: 'KYC Match refused by a limit',
      description: 'KYC Match requests refused with 429: over the partner\'s rate limit, or over KYC_MATCH_MAX_PER_NUMBER_PER_DAY for one number (the guard against guessing a birth date or document one value at a time; KYC Age Verification\'s thresholds count here too). A steady rate from one partner is worth a look.',
      unit: 'reqps',
      targets: [{ expr: `sum by (operation) (rate(verify_rate_limited_total${sel('operation="kyc_match"')}[$__rate_interval]))`, legend: 'refused' }],
    }),
    series({
      title: 'Customer records calls by outcome',
      description: 'Calls per second to customer records (CRM_URL), one per KYC Match that reaches it (the record is never cached): ok, not_found (no record: every attribute not_available), error, timeout (CRM_TIMEOUT_MS), rejected (open breaker).',
      unit: 'reqps',
      stack: true,
      targets: [{ expr: `sum by (outcome) (rate(verify_upstream_calls_total${sel(CRM)}[$__rate_interval]))`, legend: '{{outcome}}' }],
    }),
    series({
      title: 'Customer records latency p50 / p95 / p99',
      description: 'Duration of the calls sent to customer records, failures included: KYC Match waits for it on every request. A timeout shows as CRM_TIMEOUT_MS.',
      unit: 's',
      targets: [0.5, 0.95, 0.99].map((q) => ({
        expr: `histogram_quantile(${q}, sum by (le) (rate(verify_upstream_call_duration_seconds_bucket${sel(CRM)}[$__rate_interval])))`,
        legend: `p${Math.round(q * 100)}`,
      })),
    }),
  ];
}
