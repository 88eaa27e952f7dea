import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { Operation } from '../domain/operation';
import {
  AuthFailureReason, BreakerState, CacheOutcome, Metrics, TxnOutcome, UpstreamOutcome,
} from '../domain/ports/metrics';
import { StoreMode } from '../domain/ports/state-store';
import { UpstreamName } from '../domain/ports/upstreams';

export type Interface = 'rest' | 'graphql';
const BREAKER_STATES: readonly BreakerState[] = ['closed', 'open', 'half_open'];
const STORE_MODES: readonly StoreMode[] = ['memory', 'redis', 'degraded'];
// Include the SLO thresholds (50 ms, 250 ms, 1 s) as bucket edges so ratios are exact.
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The Prometheus side of the metrics port: every label is a small, fixed set. */
export class PrometheusMetrics implements Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'operation' | 'interface' | 'code' | 'status'>;
  private readonly requestSeconds: Histogram<'operation' | 'interface'>;
  private readonly cacheLookups: Counter<'operation' | 'outcome'>;
  private readonly txns: Counter<'outcome'>;
  private readonly authFailures: Counter<'reason'>;
  private readonly rateLimitedTotal: Counter<'operation'>;
  private readonly upstreamCalls: Counter<'upstream' | 'outcome'>;
  private readonly upstreamSeconds: Histogram<'upstream'>;
  private readonly breaker: Gauge<'upstream' | 'state'>;
  private readonly breakerTransitions: Counter<'upstream' | 'state'>;
  private readonly store: Gauge<'mode'>;

  constructor(opts: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    if (opts.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({ name: 'verify_requests_total', help: 'Requests answered, by operation, interface, result code and HTTP status.', labelNames: ['operation', 'interface', 'code', 'status'], registers });
    this.requestSeconds = new Histogram({ name: 'verify_request_duration_seconds', help: 'Time to answer a request.', labelNames: ['operation', 'interface'], buckets: REQUEST_BUCKETS, registers });
    this.cacheLookups = new Counter({ name: 'verify_cache_lookups_total', help: 'Cache lookups by operation and outcome (hit, miss, stale).', labelNames: ['operation', 'outcome'], registers });
    this.txns = new Counter({ name: 'verify_txn_total', help: 'txn_id outcomes (new, replayed, conflict, in_flight).', labelNames: ['outcome'], registers });
    this.authFailures = new Counter({ name: 'verify_auth_failures_total', help: 'Authentication failures by reason.', labelNames: ['reason'], registers });
    this.rateLimitedTotal = new Counter({ name: 'verify_rate_limited_total', help: 'Requests refused by a partner rate limit.', labelNames: ['operation'], registers });
    this.upstreamCalls = new Counter({ name: 'verify_upstream_calls_total', help: 'Upstream calls by upstream and outcome.', labelNames: ['upstream', 'outcome'], registers });
    this.upstreamSeconds = new Histogram({ name: 'verify_upstream_call_duration_seconds', help: 'Upstream call durations.', labelNames: ['upstream'], buckets: REQUEST_BUCKETS, registers });
    this.breaker = new Gauge({ name: 'verify_circuit_breaker_state', help: '1 for the current state of each upstream circuit breaker.', labelNames: ['upstream', 'state'], registers });
    this.breakerTransitions = new Counter({ name: 'verify_circuit_breaker_transitions_total', help: 'Circuit breaker state changes, by the state entered.', labelNames: ['upstream', 'state'], registers });
    this.store = new Gauge({ name: 'verify_state_store_mode', help: '1 for where state lives now (memory, redis, degraded).', labelNames: ['mode'], registers });
  }

  request(operation: Operation | 'none', iface: Interface, code: string, status: number, seconds: number): void {
    this.requests.inc({ operation, interface: iface, code, status: String(status) });
    this.requestSeconds.observe({ operation, interface: iface }, seconds);
  }

  cache(operation: Operation, outcome: CacheOutcome): void {
    this.cacheLookups.inc({ operation, outcome });
  }

  txn(outcome: TxnOutcome): void {
    this.txns.inc({ outcome });
  }

  authFailure(reason: AuthFailureReason): void {
    this.authFailures.inc({ reason });
  }

  rateLimited(operation: Operation): void {
    this.rateLimitedTotal.inc({ operation });
  }

  upstreamCall(upstream: UpstreamName, outcome: UpstreamOutcome, seconds: number): void {
    this.upstreamCalls.inc({ upstream, outcome });
    if (outcome !== 'rejected') this.upstreamSeconds.observe({ upstream }, seconds);
  }

  breakerState(upstream: UpstreamName, state: BreakerState): void {
    for (const s of BREAKER_STATES) this.breaker.set({ upstream, state: s }, s === state ? 1 : 0);
    this.breakerTransitions.inc({ upstream, state });
  }

  storeMode(mode: StoreMode): void {
    for (const m of STORE_MODES) this.store.set({ mode: m }, m === mode ? 1 : 0);
  }
}
