/* The soak's rows, its flatness verdict and its table (scripts/soak.ts). */
import { formatTable } from '../tools/process-kit/text-table';

export const MB = 1024 * 1024;

export interface Row {
  t: number;
  sent: number;
  ratePerS: number;
  answers: Record<string, number>;
  bad: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Mean and peak of the 1 s readings in the window. */
  rssMb: number;
  rssMaxMb: number;
  /** Lowest heap-used reading in the window: what was live after the last GC, without the garbage sawtooth. */
  heapUsedMb: number;
  heapUsedMaxMb: number;
  heapTotalMb: number;
  eventLoopP99Ms: number;
  redisUsedMb?: number;
  redisKeys?: number;
}

export interface Trend {
  metric: string;
  firstThirdMb: number;
  lastThirdMb: number;
  growthMb: number;
  toleranceMb: number;
  /** Highest single reading in the first and last third: a leak lifts the ceiling too. */
  firstThirdPeakMb: number;
  lastThirdPeakMb: number;
  slopeMbPerHour: number;
  flat: boolean;
}

export function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
}

export const avg = (v: number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : 0);

/** Least-squares slope of y over t (seconds), in units of y per hour. */
function slopePerHour(t: number[], y: number[]): number {
  const mt = avg(t);
  const my = avg(y);
  let num = 0;
  let den = 0;
  for (let i = 0; i < t.length; i++) {
    num += (t[i] - mt) * (y[i] - my);
    den += (t[i] - mt) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 3600;
}

/** Flat: the last third's average (after warm-up) within max(pct %, floor) of the first third's. */
export function trend(rows: Row[], warmupS: number, metricName: string, pick: (r: Row) => number, peak: (r: Row) => number, pct: number, floorMb: number): Trend {
  const steady = rows.filter((r) => r.t > warmupS);
  const third = Math.max(1, Math.floor(steady.length / 3));
  const first = avg(steady.slice(0, third).map(pick));
  const last = avg(steady.slice(-third).map(pick));
  const tolerance = Math.max((first * pct) / 100, floorMb);
  const growth = last - first;
  return {
    metric: metricName,
    firstThirdMb: round1(first),
    lastThirdMb: round1(last),
    growthMb: round1(growth),
    toleranceMb: round1(tolerance),
    firstThirdPeakMb: round1(Math.max(...steady.slice(0, third).map(peak))),
    lastThirdPeakMb: round1(Math.max(...steady.slice(-third).map(peak))),
    slopeMbPerHour: round1(slopePerHour(steady.map((r) => r.t), steady.map(pick))),
    flat: steady.length >= 3 && growth <= tolerance,
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

export function table(rows: Row[]): string {
  const head = ['t s', 'sent', 'req/s', 'answers', 'bad', 'p50 ms', 'p99 ms', 'max ms', 'RSS MB', 'RSS max', 'heap min MB', 'heap max', 'heap total', 'loop p99 ms', 'redis MB', 'redis keys'];
  const body = rows.map((r) => [
    String(r.t), String(r.sent), r.ratePerS.toFixed(1),
    Object.entries(r.answers).sort().map(([k, n]) => `${n}×${k.replace(' ', '/')}`).join(' '),
    String(r.bad), String(r.p50Ms), String(r.p99Ms), String(r.maxMs),
    r.rssMb.toFixed(1), r.rssMaxMb.toFixed(1), r.heapUsedMb.toFixed(1), r.heapUsedMaxMb.toFixed(1), r.heapTotalMb.toFixed(1), r.eventLoopP99Ms.toFixed(1),
    r.redisUsedMb === undefined ? '-' : r.redisUsedMb.toFixed(1), r.redisKeys === undefined ? '-' : String(r.redisKeys),
  ]);
  return formatTable(head, body, { leftColumns: [3] });
}
