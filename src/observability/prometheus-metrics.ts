import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { LegacyOperation, Operation } from '../partners/operation';
import {
  AuthFailureReason, AuthInterface, BreakerState, CacheOutcome, Metrics, RefusedReply, ReplicationWaitOutcome, StateStoreFailure, TxnOutcome,
  UpstreamOutcome,
} from '../verification/ports/metrics';
import { StoreMode } from '../verification/ports/state-store';
import { UpstreamName } from '../verification/ports/upstreams';
import { PrometheusAuditMetrics } from './audit-prometheus-metrics';
import { Interface, LABELS } from './label-values';

export type { Interface };

/**
 * Bucket edges in seconds. The latency objectives (docs/observability.md: p95 within 250 ms,
 * p99 within 1 s) are edges, so "more than 1% slower than 1 s" is an exact count of the
 * histogram rather than an interpolation between edges.
 */
export const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * prom-client's defaults include three gauges named like counters (`*_total`), which
 * `promtool check metrics` rejects. Their per-type siblings (`nodejs_active_handles`,
 * `nodejs_active_requests`, `nodejs_active_resources`) carry the same numbers, so the
 * `_total` gauges are dropped rather than renamed.
 */
export const NON_CONFORMING_DEFAULT_METRICS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
] as const;

/** Node's process metrics (CPU, memory, heap, event loop lag, GC, file descriptors) on the registry. */
export function registerProcessMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry });
  for (const name of NON_CONFORMING_DEFAULT_METRICS) {
    if (registry.getSingleMetric(name)) registry.removeSingleMetric(name);
  }
}

/** Request series created at start, so ratios read 0 (not "no data") before the first error. */
const INITIAL_RESULTS = [{ code: '00000', status: '200' }, { code: '9999', status: '503' }] as const;

/** The Prometheus side of the metrics port: every label is a small, fixed set. */
export class PrometheusMetrics implements Metrics {
  readonly registry = new Registry();
  /** The audit writer's counters and gauges, on the same registry (docs/audit.md). */
  readonly audit = new PrometheusAuditMetrics(this.registry);
  private readonly requests: Counter<'operation' | 'interface' | 'code' | 'status'>;
  private readonly requestSeconds: Histogram<'operation' | 'interface'>;
  private readonly cacheLookups: Counter<'operation' | 'outcome'>;
  private readonly txns: Counter<'outcome'>;
  private readonly authFailures: Counter<'interface' | 'reason'>;
  private readonly rateLimitedTotal: Counter<'operation'>;
  private readonly upstreamCalls: Counter<'upstream' | 'outcome'>;
  private readonly upstreamSeconds: Histogram<'upstream'>;
  private readonly refusedReplies: Counter<'upstream' | 'reason'>;
  private readonly breaker: Gauge<'upstream' | 'state'>;
  private readonly breakerTransitions: Counter<'upstream' | 'state'>;
  private readonly store: Gauge<'mode'>;
  private readonly replicationWaits: Counter<'outcome'>;
  private readonly storeFailures: Counter<'outcome'>;
  /** Upstreams whose breaker has reported once: their first report is the initial state, not a change. */
  private readonly breakersSeen = new Set<UpstreamName>();
  private storeModeSource?: () => StoreMode;

  constructor(opts: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    if (opts.defaultMetrics !== false) registerProcessMetrics(this.registry);
    this.requests = new Counter({ name: 'verify_requests_total', help: 'Requests answered, by operation, interface, result code and HTTP status.', labelNames: ['operation', 'interface', 'code', 'status'], registers });
    this.requestSeconds = new Histogram({ name: 'verify_request_duration_seconds', help: 'Time to answer a request, from arrival to the last byte written.', labelNames: ['operation', 'interface'], buckets: REQUEST_BUCKETS, registers });
    this.cacheLookups = new Counter({ name: 'verify_cache_lookups_total', help: 'Cache lookups by operation and outcome (hit, miss; stale when an expired answer was served because the upstream failed).', labelNames: ['operation', 'outcome'], registers });
    this.txns = new Counter({ name: 'verify_txn_total', help: 'txn_id outcomes (new, replayed, conflict, in_flight).', labelNames: ['outcome'], registers });
    this.authFailures = new Counter({ name: 'verify_auth_failures_total', help: 'Authentication failures by where the partner authenticated (rest, graphql: signatures; oauth: the token endpoint\'s client secret) and reason.', labelNames: ['interface', 'reason'], registers });
    this.rateLimitedTotal = new Counter({ name: 'verify_rate_limited_total', help: 'Requests refused by a partner rate limit.', labelNames: ['operation'], registers });
    this.upstreamCalls = new Counter({ name: 'verify_upstream_calls_total', help: 'Upstream calls by upstream and outcome (rejected: refused by the open circuit, never sent).', labelNames: ['upstream', 'outcome'], registers });
    this.upstreamSeconds = new Histogram({ name: 'verify_upstream_call_duration_seconds', help: 'Upstream call durations (calls actually sent).', labelNames: ['upstream'], buckets: REQUEST_BUCKETS, registers });
    this.refusedReplies = new Counter({
      name: 'verify_upstream_replies_refused_total',
      help: 'Upstream replies not used (each also an error call): too_large (over UPSTREAM_MAX_BODY_BYTES once decoded), other_subscriber (a 200 about another number).',
      labelNames: ['upstream', 'reason'],
      registers,
    });
    this.breaker = new Gauge({ name: 'verify_circuit_breaker_state', help: '1 for the current state of each upstream circuit breaker.', labelNames: ['upstream', 'state'], registers });
    this.breakerTransitions = new Counter({ name: 'verify_circuit_breaker_transitions_total', help: 'Circuit breaker state changes, by the state entered.', labelNames: ['upstream', 'state'], registers });
    this.replicationWaits = new Counter({
      name: 'verify_redis_replication_waits_total',
      help: 'txn_id writes with REDIS_WAIT_REPLICAS: acked by enough replicas, short (fewer within REDIS_WAIT_TIMEOUT_MS), skipped (no WAIT: one on the same connection was short within the last second).',
      labelNames: ['outcome'],
      registers,
    });
    this.storeFailures = new Counter({
      name: 'verify_state_store_failures_total',
      help: 'State store calls that failed without an outage: command_error (a bug, answered 500; the store stays on Redis), degraded_full (a new txn_id refused with 503: degraded memory budget full), timeout (a command outlived REDIS_COMMAND_TIMEOUT_MS on a standing connection: slow, not down; a txn_id claim is answered 503 and released).',
      labelNames: ['outcome'],
      registers,
    });
    this.store = new Gauge({
      name: 'verify_state_store_mode',
      help: '1 for where state lives now (memory, redis; degraded: Redis configured but unreachable).',
      labelNames: ['mode'],
      registers,
      collect: () => {
        // Read at scrape time when a source is wired, so the gauge cannot miss a change.
        if (this.storeModeSource) this.setStoreMode(this.storeModeSource());
      },
    });
    this.zeroInitialise();
  }

  request(operation: Operation | 'none', iface: Interface, code: string, status: number, seconds: number): void {
    this.requests.inc({ operation, interface: iface, code, status: String(status) });
    this.requestSeconds.observe({ operation, interface: iface }, seconds);
  }

  cache(operation: LegacyOperation, outcome: CacheOutcome): void {
    this.cacheLookups.inc({ operation, outcome });
  }

  txn(outcome: TxnOutcome): void {
    this.txns.inc({ outcome });
  }

  authFailure(reason: AuthFailureReason, iface: AuthInterface): void {
    this.authFailures.inc({ interface: iface, reason });
  }

  rateLimited(operation: Operation): void {
    this.rateLimitedTotal.inc({ operation });
  }

  upstreamCall(upstream: UpstreamName, outcome: UpstreamOutcome, seconds: number): void {
    this.upstreamCalls.inc({ upstream, outcome });
    if (outcome !== 'rejected') this.upstreamSeconds.observe({ upstream }, seconds);
  }

  upstreamReplyRefused(upstream: UpstreamName, reason: RefusedReply): void {
    this.refusedReplies.inc({ upstream, reason });
  }

  breakerState(upstream: UpstreamName, state: BreakerState): void {
    for (const s of LABELS.breakerState) this.breaker.set({ upstream, state: s }, s === state ? 1 : 0);
    if (this.breakersSeen.has(upstream)) this.breakerTransitions.inc({ upstream, state });
    this.breakersSeen.add(upstream);
  }

  storeMode(mode: StoreMode): void {
    this.setStoreMode(mode);
  }

  replicationWait(outcome: ReplicationWaitOutcome): void {
    this.replicationWaits.inc({ outcome });
  }

  stateStoreFailure(kind: StateStoreFailure): void {
    this.storeFailures.inc({ outcome: kind });
  }

  /** Reads the store's mode at every scrape instead of relying on each change being reported. */
  trackStoreMode(source: () => StoreMode): void {
    this.storeModeSource = source;
    this.setStoreMode(source());
  }

  private setStoreMode(mode: StoreMode): void {
    for (const m of LABELS.storeMode) this.store.set({ mode: m }, m === mode ? 1 : 0);
  }

  /**
   * Counters that only appear on their first event make `increase()` miss that event and
   * leave dashboard ratios empty; every bounded label combination starts at 0 instead.
   */
  private zeroInitialise(): void {
    for (const operation of LABELS.operation) {
      for (const iface of LABELS.interface) {
        for (const r of INITIAL_RESULTS) this.requests.inc({ operation, interface: iface, ...r }, 0);
        this.requestSeconds.zero({ operation, interface: iface });
      }
      for (const outcome of LABELS.cacheOutcome) this.cacheLookups.inc({ operation, outcome }, 0);
      this.rateLimitedTotal.inc({ operation }, 0);
    }
    for (const outcome of LABELS.txnOutcome) this.txns.inc({ outcome }, 0);
    for (const outcome of LABELS.replicationWait) this.replicationWaits.inc({ outcome }, 0);
    for (const outcome of LABELS.stateStoreFailure) this.storeFailures.inc({ outcome }, 0);
    for (const iface of LABELS.authInterface) {
      for (const reason of LABELS.authReason) this.authFailures.inc({ interface: iface, reason }, 0);
    }
    for (const upstream of LABELS.upstream) {
      for (const outcome of LABELS.upstreamOutcome) this.upstreamCalls.inc({ upstream, outcome }, 0);
      this.upstreamSeconds.zero({ upstream });
      for (const reason of LABELS.refusedReply) this.refusedReplies.inc({ upstream, reason }, 0);
      for (const state of LABELS.breakerState) this.breakerTransitions.inc({ upstream, state }, 0);
    }
  }
}
