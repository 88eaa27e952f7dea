import { Builder } from '@grafana/grafana-foundation-sdk/cog';
import { Panel } from '@grafana/grafana-foundation-sdk/dashboard';
import { sel, series, states } from '../panel-kit';

const lookups = (matchers = '') => `rate(verify_cache_lookups_total${sel(matchers)}[$__rate_interval])`;

/** How well the cache works, what txn_id retries do, who fails to sign, who is throttled, where state lives. */
export function partnerPanels(): Builder<Panel>[] {
  return [
    series({
      title: 'Cache hit ratio by operation',
      description: 'Share of lookups answered from a fresh cache entry, per operation. KYC entries live KYC_CACHE_TTL_S (300 s), SIM swap SIM_SWAP_CACHE_TTL_S (30 s), so SIM swap hits are rarer by design.',
      unit: 'percentunit',
      targets: [{
        expr: `sum by (operation) (${lookups('outcome="hit"')}) / sum by (operation) (${lookups('outcome=~"hit|miss"')})`,
        legend: '{{operation}}',
      }],
    }),
    series({
      title: 'Cache lookups by outcome',
      description: 'Lookups per second by operation and outcome. stale counts KYC answers served past their TTL (up to KYC_STALE_S) because the HLR was unavailable: each one is a 9999 avoided.',
      unit: 'reqps',
      targets: [{ expr: `sum by (operation, outcome) (${lookups()})`, legend: '{{operation}} {{outcome}}' }],
    }),
    series({
      title: 'txn_id outcomes: replays and conflicts',
      description: 'Requests carrying a txn_id per second: new, replayed (a retry answered from the stored response, no upstream call), conflict (same txn_id for another request: 409), in_flight (a retry while the first is still running: 409).',
      unit: 'reqps',
      targets: [{ expr: `sum by (outcome) (rate(verify_txn_total${sel()}[$__rate_interval]))`, legend: '{{outcome}}' }],
    }),
    series({
      title: 'Authentication failures by reason',
      description: 'Requests refused with 401 (or 429 by the failed-authentication throttle: throttled) per second, by where the partner authenticated (rest, graphql: signatures; oauth: the token endpoint\'s client secret) and reason: missing_key, unknown_key, disabled, bad_signature, bad_secret, bad_timestamp, stale_timestamp (clock skew beyond SIG_MAX_SKEW_S), throttled. The partner is not named here (the key is unknown or unproven); the request log line has the correlator.',
      unit: 'reqps',
      targets: [{ expr: `sum by (interface, reason) (rate(verify_auth_failures_total${sel()}[$__rate_interval]))`, legend: '{{interface}} {{reason}}' }],
    }),
    series({
      title: 'Rate-limited requests by operation',
      description: 'Requests refused with 429 per second because a partner exceeded its rateLimit in the partner registry. Sustained values mean a partner needs a higher limit or is retrying too eagerly.',
      unit: 'reqps',
      targets: [{ expr: `sum by (operation) (rate(verify_rate_limited_total${sel()}[$__rate_interval]))`, legend: '{{operation}}' }],
    }),
    states({
      title: 'State store (Redis) by instance',
      description: 'Where each instance keeps cache, txn_id records and rate-limit buckets: memory (no Redis configured), redis (connected), degraded (Redis configured but unreachable: txn_id uniqueness and rate limits are per instance until it returns; VerifyStateStoreDegraded).',
      unit: 'none',
      states: { 0: ['memory', 'blue'], 1: ['redis', 'green'], 2: ['degraded', 'red'] },
      targets: [{
        expr: `max by (instance) (verify_state_store_mode${sel('mode="redis"')} or verify_state_store_mode${sel('mode="degraded"')} * 2 or verify_state_store_mode${sel('mode="memory"')} * 0)`,
        legend: '{{instance}}',
      }],
    }),
    series({
      title: 'txn_id records reaching a replica (WAIT)',
      description: 'With REDIS_WAIT_REPLICAS, every txn_id claim and answer record waits for a Redis replica before the answer goes out, so a failover cannot lose it. acked: in time; short: fewer replicas within REDIS_WAIT_TIMEOUT_MS; skipped: sent without WAIT for a second after a short one. Anything but acked means a failover now could answer a retried txn_id twice (VerifyTxnRecordsUnreplicated). Flat at 0 with REDIS_WAIT_REPLICAS=0.',
      unit: 'ops',
      targets: [{ expr: `sum by (outcome) (rate(verify_redis_replication_waits_total${sel()}[$__rate_interval]))`, legend: '{{outcome}}' }],
    }),
    series({
      title: 'State store failures that are not outages',
      description: 'command_error: a Redis command or adapter failed with a bug (a TypeError, a WRONGTYPE): answered 500, the store stays on Redis instead of hiding the bug behind the fallback. degraded_full: during an outage, a new txn_id refused with 503 because the memory budget for degraded mode is full (docs/redis.md). Both should be 0.',
      unit: 'ops',
      targets: [{ expr: `sum by (outcome) (rate(verify_state_store_failures_total${sel()}[$__rate_interval]))`, legend: '{{outcome}}' }],
    }),
  ];
}
