import { join } from 'node:path';
import { LoadResult, LoadSpec } from './load-worker';
import { spawnHelper } from './processes';
import { RssSampler, cpuSeconds, rssMb } from '../tools/process-kit/proc-stats';
import { ScenarioResult, SoakResult, cpuUsPerRequest } from './report';
import { preflight } from './preflight';
import { RequestCosts, startCosts } from './request-costs';
import { Scenario, numberBase } from './scenarios';
import { RunningTarget, Stack, scrapeCounters, setUpstreamLatency } from './stack';

export interface RunOptions {
  durationS: number;
  warmupS: number;
  /** The measured rate a half-rate run takes its share of (S1's, or the scenario's `rateOf`). */
  s1Rps?: number;
  /** Which round of how many (a single run: 0 of 1): keeps distinct numbers apart across rounds. */
  round: number;
  rounds: number;
  /** Told when the measured run starts and when it has ended (--alloc-profile samples the service in between). */
  window?: MeasuredWindow;
}

/** Hooks around a scenario's measured run, after its warm-up; abort() when the run failed. */
export interface MeasuredWindow {
  begin(): void;
  end(load: LoadResult): Promise<void>;
  abort(): void;
}

/** What the load generator prints when its warm-up is over and the measured run starts. */
export const MEASURING_LINE = 'measuring';

/** Runs the load generator as its own process (on the bench's CPU) and reads its last line, the result's JSON. */
function runLoad(stack: Stack, spec: LoadSpec, onMeasuring?: () => void): Promise<LoadResult> {
  const proc = spawnHelper([join(stack.root, 'dist/bench/bench/load-worker.js'), JSON.stringify(spec)], { PATH: process.env.PATH });
  let out = '';
  proc.stdout?.on('data', (c: Buffer) => {
    out += c.toString('utf8');
    if (onMeasuring && out.split('\n').includes(MEASURING_LINE)) {
      onMeasuring();
      onMeasuring = undefined;
    }
  });
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop() as string) as LoadResult);
    });
  });
}

function diff(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of after) {
    const d = v - (before.get(k) ?? 0);
    if (d !== 0) out[k] = d;
  }
  return out;
}

export async function runScenario(stack: Stack, target: RunningTarget, s: Scenario, opts: RunOptions): Promise<ScenarioResult> {
  const overallRate = s.rateOfS1 !== undefined ? Math.max(1, Math.round((opts.s1Rps ?? 0) * s.rateOfS1)) : undefined;
  if (s.rateOfS1 !== undefined && !opts.s1Rps) throw new Error(`${s.id} needs ${s.rateOf ?? 'S1'} in the same run`);
  for (const [system, ms] of Object.entries(s.upstreamLatencyMs ?? {})) await setUpstreamLatency(stack, system as 'hlr' | 'sim', ms);
  try {
    const numbers = numberBase(s, opts.round, opts.rounds);
    const creds = target.creds ?? stack.creds;
    await preflight(target.url, creds, s, numbers.preflight);
    const service = target.target === 'service' || target.target === 'alt';
    const before = service ? await scrapeCounters(target.url) : undefined;
    const costs = await startCosts(stack.redis.url, stack.redis.pid());
    const sampler = new RssSampler(target.pid);
    sampler.start();
    const cpuBefore = cpuSeconds(target.pid);
    const startedMs = Date.now();
    const load = await runLoad(stack, {
      url: target.url, kind: s.kind, creds, connections: s.connections, durationS: opts.durationS,
      warmupS: opts.warmupS, expectStatuses: s.expectStatuses, numberBase: numbers.load, ...(overallRate ? { overallRate } : {}),
    }, opts.window && (() => opts.window?.begin()));
    const peakRssMb = sampler.stop();
    const serverCpuPct = ((cpuSeconds(target.pid) - cpuBefore) / ((Date.now() - startedMs) / 1000)) * 100;
    // After the CPU reading (the service builds the profile it hands over) and before the /metrics scrape (not a request of the run).
    await opts.window?.end(load);
    const result: ScenarioResult = { id: s.id, title: s.title, connections: s.connections, ...load, peakRssMb, serverCpuPct };
    if (overallRate) result.overallRate = overallRate;
    if (before) result.counters = diff(before, await scrapeCounters(target.url));
    // The preflight's requests are in the counters too.
    result.costs = await costs(load.requests + (load.warmupRequests ?? 0) + 1, result.counters);
    return result;
  } catch (err) {
    opts.window?.abort();
    throw err;
  } finally {
    for (const system of Object.keys(s.upstreamLatencyMs ?? {})) await setUpstreamLatency(stack, system as 'hlr' | 'sim', 0);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

function addInto(into: Record<string, number>, from: Record<string, number> | undefined): void {
  for (const [k, v] of Object.entries(from ?? {})) into[k] = (into[k] ?? 0) + v;
}

/** One result from a scenario's rounds: medians of rate and latency, sums of counts, peaks of RSS. */
export function combineRounds(rounds: ScenarioResult[]): ScenarioResult {
  const first = rounds[0];
  const sum = (f: (r: ScenarioResult) => number) => rounds.reduce((a, r) => a + f(r), 0);
  const statusCounts: Record<string, number> = {};
  const counters: Record<string, number> = {};
  for (const r of rounds) {
    addInto(statusCounts, r.statusCounts);
    addInto(counters, r.counters);
  }
  const out: ScenarioResult = {
    ...first,
    requests: sum((r) => r.requests), durationS: sum((r) => r.durationS),
    rps: median(rounds.map((r) => r.rps)), p50Ms: median(rounds.map((r) => r.p50Ms)), p99Ms: median(rounds.map((r) => r.p99Ms)),
    maxMs: Math.max(...rounds.map((r) => r.maxMs)), errors: sum((r) => r.errors), non2xx: sum((r) => r.non2xx),
    unexpected: sum((r) => r.unexpected), statusCounts, loadgenCpuPct: sum((r) => r.loadgenCpuPct) / rounds.length,
    peakRssMb: Math.max(...rounds.map((r) => r.peakRssMb)), serverCpuPct: sum((r) => r.serverCpuPct) / rounds.length,
    rounds: rounds.length, rpsRounds: rounds.map((r) => Math.round(r.rps)), cpuUsRounds: rounds.map((r) => Math.round(cpuUsPerRequest(r) ?? NaN)),
  };
  if (first.counters) out.counters = counters;
  const costs = rounds.map((r) => r.costs).filter((c): c is RequestCosts => c !== undefined);
  if (costs.length > 0) out.costs = mergeCosts(costs);
  return out;
}

/** Per-request costs of several rounds: each weighted by its requests. */
function mergeCosts(all: RequestCosts[]): RequestCosts {
  const n = all.reduce((a, c) => a + c.requests, 0);
  const w = (f: (c: RequestCosts) => number) => all.reduce((a, c) => a + f(c) * c.requests, 0) / n;
  const byCommand: Record<string, number> = {};
  for (const c of all) for (const [k, v] of Object.entries(c.redisByCommand)) byCommand[k] = (byCommand[k] ?? 0) + (v * c.requests) / n;
  return {
    requests: n, redisCommands: w((c) => c.redisCommands), redisByCommand: byCommand, redisBytesIn: w((c) => c.redisBytesIn),
    redisBytesOut: w((c) => c.redisBytesOut), redisCpuUs: w((c) => c.redisCpuUs), upstreamCalls: w((c) => c.upstreamCalls),
  };
}

/** One million S1 requests as fast as they go; RSS before, during (every 5 s) and after. */
export async function runSoak(stack: Stack, target: RunningTarget, s: Scenario, opts: { warmupS: number }): Promise<SoakResult> {
  await preflight(target.url, stack.creds, s, 0);
  const started = Date.now();
  const series: [number, number][] = [];
  let peak = 0;
  let rssStartMb = rssMb(target.pid) ?? 0;
  const timer = setInterval(() => {
    const mb = rssMb(target.pid) ?? 0;
    peak = Math.max(peak, mb);
    series.push([Math.round((Date.now() - started) / 1000), Math.round(mb * 10) / 10]);
  }, 5000);
  try {
    const load = await runLoad(stack, {
      url: target.url, kind: s.kind, creds: stack.creds, connections: s.connections, amount: s.amount,
      warmupS: opts.warmupS, expectStatuses: s.expectStatuses, numberBase: 0,
    });
    // With a warm-up inside the worker the first sample after it is the fair start.
    if (opts.warmupS > 0 && series.length > 0) rssStartMb = (series.find(([t]) => t >= opts.warmupS) ?? series[0])[1];
    const rssEndMb = rssMb(target.pid) ?? 0;
    return {
      requests: load.requests, rps: load.rps, errors: load.errors, unexpected: load.unexpected,
      rssStartMb, rssEndMb, rssPeakMb: Math.max(peak, rssEndMb), rssSeries: series,
    };
  } finally {
    clearInterval(timer);
  }
}
