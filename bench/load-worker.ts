import autocannon from 'autocannon';
import { RouteLatency, runPaced } from './paced-load';
import { Credentials, RequestFactory, RequestKind } from './request-factory';

/**
 * The load generator, run as its own process (pinned to the other core than the service):
 * reads one LoadSpec as JSON from argv, runs autocannon (warm-up, then the measured run) and
 * prints one LoadResult as JSON on stdout, after a line `measuring` when the measured run starts
 * (scenario-runner's MEASURING_LINE: --alloc-profile samples the service from then on).
 */
export interface LoadSpec {
  url: string;
  kind: RequestKind;
  creds: Credentials;
  connections: number;
  /** Measured run: a duration, or a number of requests (the soak). */
  durationS?: number;
  amount?: number;
  /** Open loop: requests per second, evenly spaced (paced-load.ts); unset: closed loop, as fast as answered. */
  overallRate?: number;
  warmupS: number;
  /** The statuses that count as right (401 or 429 for the bad-signature run). */
  expectStatuses: number[];
  numberBase: number;
}

export interface LoadResult {
  requests: number;
  durationS: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Socket errors and timeouts. */
  errors: number;
  non2xx: number;
  /** Responses whose status is not one of expectStatuses. */
  unexpected: number;
  statusCounts: Record<string, number>;
  /** CPU the load generator itself used during the measured run, in % of one core (near 100: it is the limit). */
  loadgenCpuPct: number;
  /** Open-loop runs: p99 of how late the generator sent a request after its scheduled time (included in the latencies). */
  sendLagP99Ms?: number;
  /** Open-loop runs: latency by route and status, to tell which kind of request makes the tail. */
  byRoute?: Record<string, RouteLatency>;
  /** Requests answered during the warm-up (not measured; counted for the per-request costs). */
  warmupRequests?: number;
}

function run(spec: LoadSpec, factory: RequestFactory, opts: { durationS?: number; amount?: number }, measure: boolean): Promise<LoadResult> {
  // Latencies in microseconds, every one of them: autocannon's histogram rounds to whole ms.
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  const base: autocannon.Options = {
    url: spec.url,
    connections: spec.connections,
    timeout: 10,
    headers: { 'content-type': 'application/json' },
    requests: [{ method: 'POST', setupRequest: (req) => Object.assign(req, factory.next()) }],
    ...(opts.amount ? { amount: opts.amount } : { duration: opts.durationS ?? 1 }),
  };
  return new Promise((resolve, reject) => {
    const startedMs = Date.now();
    const cpuBefore = process.cpuUsage();
    const instance = autocannon(base, (err, r) => {
      if (err) return reject(err instanceof Error ? err : new Error(String(err)));
      const durationS = (Date.now() - startedMs) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      const loadgenCpuPct = ((cpu.user + cpu.system) / 1e6 / durationS) * 100;
      const sorted = latencies.subarray(0, n).sort();
      const pct = (p: number) => (n === 0 ? 0 : sorted[Math.min(n - 1, Math.floor(p * n))] / 1000);
      const statusCounts: Record<string, number> = {};
      let expected = 0;
      // @types/autocannon marks these optional; autocannon 8 always sets them on a finished run.
      for (const [code, { count = 0 }] of Object.entries(r.statusCodeStats ?? {})) {
        statusCounts[code] = count;
        if (spec.expectStatuses.includes(Number(code))) expected += count;
      }
      const total = Object.values(statusCounts).reduce((a, b) => a + b, 0);
      resolve({
        requests: total, durationS, rps: total / durationS,
        p50Ms: pct(0.5), p99Ms: pct(0.99), maxMs: pct(1),
        errors: r.errors + r.timeouts, non2xx: r.non2xx, unexpected: total - expected, statusCounts, loadgenCpuPct,
      });
    });
    if (!measure) return;
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      if (!spec.expectStatuses.includes(statusCode)) return;
      if (n === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[n++] = responseTimeMs * 1000;
    });
  });
}

/** The open-loop run (a rate): evenly spaced requests, latency from each one's scheduled start. */
async function runAtRate(spec: LoadSpec, factory: RequestFactory, durationS: number): Promise<LoadResult> {
  const cpuBefore = process.cpuUsage();
  const out = await runPaced({
    url: spec.url, ratePerS: spec.overallRate as number, durationS, maxSockets: spec.connections, expectStatuses: spec.expectStatuses,
  }, factory);
  const cpu = process.cpuUsage(cpuBefore);
  const sorted = out.latenciesUs.sort();
  const n = sorted.length;
  const pct = (p: number) => (n === 0 ? 0 : sorted[Math.min(n - 1, Math.floor(p * n))] / 1000);
  const total = Object.values(out.statusCounts).reduce((a, b) => a + b, 0);
  let expected = 0;
  for (const [code, count] of Object.entries(out.statusCounts)) if (spec.expectStatuses.includes(Number(code))) expected += count;
  return {
    requests: total, durationS: out.durationS, rps: total / out.durationS, p50Ms: pct(0.5), p99Ms: pct(0.99), maxMs: pct(1),
    errors: out.errors, non2xx: total - (out.statusCounts['200'] ?? 0), unexpected: total - expected, statusCounts: out.statusCounts,
    loadgenCpuPct: ((cpu.user + cpu.system) / 1e6 / out.durationS) * 100, sendLagP99Ms: out.sendLagP99Ms,
    byRoute: out.byRoute,
  };
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '') as LoadSpec;
  const factory = new RequestFactory(spec.kind, spec.creds, spec.numberBase);
  if (spec.overallRate) {
    const warm = spec.warmupS > 0 ? await runAtRate(spec, factory, spec.warmupS) : undefined;
    process.stdout.write('measuring\n');
    process.stdout.write(`${JSON.stringify({ ...await runAtRate(spec, factory, spec.durationS ?? 10), warmupRequests: warm?.requests ?? 0 })}\n`);
    return;
  }
  const warm = spec.warmupS > 0 ? await run(spec, factory, { durationS: spec.warmupS }, false) : undefined;
  const measureOpts = spec.amount ? { amount: spec.amount } : { durationS: spec.durationS ?? 10 };
  process.stdout.write('measuring\n');
  const result = await run(spec, factory, measureOpts, true);
  process.stdout.write(`${JSON.stringify({ ...result, warmupRequests: warm?.requests ?? 0 })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`load-worker: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
