import { LABELS } from '../../src/observability/label-values';
import { NON_CONFORMING_DEFAULT_METRICS, PrometheusMetrics } from '../../src/observability/prometheus-metrics';

type Labels = Record<string, string | number>;

async function value(m: PrometheusMetrics, name: string, labels: Labels): Promise<number | undefined> {
  const metric = m.registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  const want = Object.entries(labels);
  return values.find((v) => want.every(([k, x]) => String((v.labels as Labels)[k]) === String(x)))?.value;
}

/** `# TYPE name kind` lines of the exposition, as [name, kind]. */
async function types(m: PrometheusMetrics): Promise<Array<[string, string]>> {
  const text = await m.registry.metrics();
  return [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((x) => [x[1], x[2]]);
}

describe('PrometheusMetrics', () => {
  it('when the metrics are created, then every bounded series starts at 0, so ratios read 0 and increase() sees the first event', async () => {
    const m = new PrometheusMetrics({ defaultMetrics: false });
    for (const operation of LABELS.operation) {
      for (const iface of LABELS.interface) {
        expect(await value(m, 'verify_requests_total', { operation, interface: iface, code: '9999', status: 503 })).toBe(0);
        expect(await value(m, 'verify_request_duration_seconds', { operation, interface: iface, le: '+Inf' })).toBe(0);
      }
      for (const outcome of LABELS.cacheOutcome) expect(await value(m, 'verify_cache_lookups_total', { operation, outcome })).toBe(0);
      expect(await value(m, 'verify_rate_limited_total', { operation })).toBe(0);
    }
    for (const outcome of LABELS.txnOutcome) expect(await value(m, 'verify_txn_total', { outcome })).toBe(0);
    for (const reason of LABELS.authReason) expect(await value(m, 'verify_auth_failures_total', { reason })).toBe(0);
    for (const upstream of LABELS.upstream) {
      for (const state of LABELS.breakerState) expect(await value(m, 'verify_circuit_breaker_transitions_total', { upstream, state })).toBe(0);
      for (const outcome of LABELS.upstreamOutcome) expect(await value(m, 'verify_upstream_calls_total', { upstream, outcome })).toBe(0);
      for (const reason of LABELS.refusedReply) expect(await value(m, 'verify_upstream_replies_refused_total', { upstream, reason })).toBe(0);
    }
  });

  it('when a breaker reports, then its first report is its initial state and only later changes are counted', async () => {
    const m = new PrometheusMetrics({ defaultMetrics: false });
    m.breakerState('hlr', 'closed');
    expect(await value(m, 'verify_circuit_breaker_state', { upstream: 'hlr', state: 'closed' })).toBe(1);
    expect(await value(m, 'verify_circuit_breaker_transitions_total', { upstream: 'hlr', state: 'closed' })).toBe(0);

    m.breakerState('hlr', 'open');
    m.breakerState('hlr', 'half_open');
    m.breakerState('hlr', 'open');
    expect(await value(m, 'verify_circuit_breaker_state', { upstream: 'hlr', state: 'open' })).toBe(1);
    expect(await value(m, 'verify_circuit_breaker_state', { upstream: 'hlr', state: 'closed' })).toBe(0);
    expect(await value(m, 'verify_circuit_breaker_state', { upstream: 'hlr', state: 'half_open' })).toBe(0);
    expect(await value(m, 'verify_circuit_breaker_transitions_total', { upstream: 'hlr', state: 'open' })).toBe(2);
    expect(await value(m, 'verify_circuit_breaker_transitions_total', { upstream: 'sim', state: 'open' })).toBe(0);
  });

  it('when the store mode changes, then exactly one mode is 1, and a tracked store is read at every scrape', async () => {
    const m = new PrometheusMetrics({ defaultMetrics: false });
    let mode: 'redis' | 'degraded' = 'redis';
    m.trackStoreMode(() => mode);
    expect(await value(m, 'verify_state_store_mode', { mode: 'redis' })).toBe(1);
    mode = 'degraded';
    await m.registry.metrics();
    expect(await value(m, 'verify_state_store_mode', { mode: 'degraded' })).toBe(1);
    expect(await value(m, 'verify_state_store_mode', { mode: 'redis' })).toBe(0);
    expect(await value(m, 'verify_state_store_mode', { mode: 'memory' })).toBe(0);
  });

  it('when a request is served, then it is in the counter and the duration histogram; when an upstream call is refused, then it has no duration', async () => {
    const m = new PrometheusMetrics({ defaultMetrics: false });
    m.request('kyc', 'graphql', '00000', 200, 0.2);
    m.upstreamCall('sim', 'rejected', 0);
    m.upstreamCall('sim', 'timeout', 2);
    expect(await value(m, 'verify_requests_total', { operation: 'kyc', interface: 'graphql', code: '00000', status: 200 })).toBe(1);
    expect(await value(m, 'verify_request_duration_seconds', { operation: 'kyc', interface: 'graphql', le: 0.25 })).toBe(1);
    expect(await value(m, 'verify_request_duration_seconds', { operation: 'kyc', interface: 'graphql', le: 0.1 })).toBe(0);
    expect(await value(m, 'verify_upstream_calls_total', { upstream: 'sim', outcome: 'rejected' })).toBe(1);
    expect(await value(m, 'verify_upstream_call_duration_seconds', { upstream: 'sim', le: '+Inf' })).toBe(1);
  });

  it('when promtool checks the metrics, then their names follow Prometheus conventions, Node defaults included', async () => {
    const all = await types(new PrometheusMetrics());
    const names = all.map(([n]) => n);
    expect(names).toEqual(expect.arrayContaining(['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_active_handles']));
    for (const n of NON_CONFORMING_DEFAULT_METRICS) expect(names).not.toContain(n);
    for (const [name, kind] of all) {
      if (kind === 'counter') expect(name).toMatch(/_total$/);
      else expect(name).not.toMatch(/_total$/);
      if (kind === 'histogram' && name.startsWith('verify_')) expect(name).toMatch(/_seconds$/);
    }
  });

  it('when txn_id writes are replicated or not, then each outcome is counted, every one from 0', async () => {
    const m = new PrometheusMetrics({ defaultMetrics: false });
    m.replicationWait('short');
    m.replicationWait('skipped');
    m.replicationWait('skipped');
    const text = await m.registry.metrics();
    expect(text).toContain('verify_redis_replication_waits_total{outcome="acked"} 0');
    expect(text).toContain('verify_redis_replication_waits_total{outcome="short"} 1');
    expect(text).toContain('verify_redis_replication_waits_total{outcome="skipped"} 2');
  });

  it('when verify_* series are labelled, then the labels come from a small fixed vocabulary, never from request data', async () => {
    const m = new PrometheusMetrics({ defaultMetrics: false });
    m.request('sim_swap', 'rest', '11111', 404, 0.01);
    const allowed = new Set(['operation', 'interface', 'code', 'status', 'outcome', 'reason', 'upstream', 'state', 'mode', 'le']);
    const metrics = await m.registry.getMetricsAsJSON();
    expect(metrics.length).toBe(18);
    for (const { values } of metrics) {
      for (const v of values) for (const label of Object.keys(v.labels)) expect(allowed).toContain(label);
    }
  });
});
