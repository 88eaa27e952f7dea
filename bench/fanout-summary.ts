/*
 * F1's arithmetic, apart from any I/O: what the sinks received against what the burst
 * should have produced (every subscription's event exactly once), and how long it took.
 */

/** One CloudEvent as a sink received it; times are epoch ms (sub-millisecond, one clock). */
export interface Arrival {
  /** Index of the sink it reached. */
  sink: number;
  eventId: string;
  type: string;
  subscriptionId: string;
  /** The event's `time`: when the service took the swap (its clock, ms precision). */
  eventTimeMs: number;
  atMs: number;
}

export interface LatencyStats {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface FanoutSummary {
  /** Events the burst should produce: one per subscription. */
  expected: number;
  /** Requests answered 2xx at the sinks, repeats included. */
  received: number;
  /** Distinct CloudEvent ids of the expected subscriptions. */
  distinctEvents: number;
  /** Repeats of an id already received (at-least-once delivery's excess); exactly once means 0. */
  duplicates: number;
  /** Expected subscriptions with no event. */
  lost: number;
  /** Subscriptions that got two or more different event ids (one swap must be one event). */
  subscriptionsWithSeveralEvents: number;
  /** Arrivals for subscriptions this run did not create (or not of the swapped type). */
  unexpected: number;
  /** First swap sent to last first-arrival, seconds. */
  spanS: number;
  /** distinctEvents / spanS. */
  deliveriesPerS: number;
  /** From the swap's POST being sent (its number's) to the event's first arrival. */
  fromSent: LatencyStats;
  /** From the event's `time` (the service took the swap) to its first arrival. */
  fromEventTime: LatencyStats;
  /** First arrivals per sink, by sink index. */
  perSink: number[];
}

/** Nearest-rank percentile (q in 0..1) of ascending values; NaN when there are none. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** p50, p99 and max of values in any order. */
export function latencyStats(values: readonly number[]): LatencyStats {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), maxMs: sorted.length ? sorted[sorted.length - 1] : NaN };
}

/**
 * Compares the arrivals with the burst. `sentAtMs` maps each expected subscription to the
 * moment its number's swap was sent; `type` is the event type the burst produces.
 */
export function summariseFanout(input: { sentAtMs: ReadonlyMap<string, number>; arrivals: readonly Arrival[]; type: string; sinks: number }): FanoutSummary {
  const { sentAtMs, arrivals, type } = input;
  const firstById = new Map<string, Arrival>();
  const idsBySubscription = new Map<string, Set<string>>();
  let received = 0;
  let unexpected = 0;
  for (const a of arrivals) {
    if (a.type !== type || !sentAtMs.has(a.subscriptionId)) {
      unexpected++;
      continue;
    }
    received++;
    if (!firstById.has(a.eventId)) firstById.set(a.eventId, a);
    const ids = idsBySubscription.get(a.subscriptionId) ?? new Set<string>();
    ids.add(a.eventId);
    idsBySubscription.set(a.subscriptionId, ids);
  }
  const firsts = [...firstById.values()];
  const fromSent = firsts.map((a) => a.atMs - (sentAtMs.get(a.subscriptionId) as number));
  const fromEventTime = firsts.map((a) => a.atMs - a.eventTimeMs);
  const perSink = Array.from({ length: input.sinks }, () => 0);
  for (const a of firsts) perSink[a.sink] = (perSink[a.sink] ?? 0) + 1;
  const firstSent = [...sentAtMs.values()].reduce((m, t) => Math.min(m, t), Infinity);
  const lastArrival = firsts.reduce((m, a) => Math.max(m, a.atMs), -Infinity);
  const spanS = firsts.length > 0 ? (lastArrival - firstSent) / 1000 : NaN;
  return {
    expected: sentAtMs.size,
    received,
    distinctEvents: firstById.size,
    duplicates: received - firstById.size,
    lost: sentAtMs.size - idsBySubscription.size,
    subscriptionsWithSeveralEvents: [...idsBySubscription.values()].filter((ids) => ids.size > 1).length,
    unexpected,
    spanS,
    deliveriesPerS: spanS > 0 ? firstById.size / spanS : NaN,
    fromSent: latencyStats(fromSent),
    fromEventTime: latencyStats(fromEventTime),
    perSink,
  };
}

/** Calls per command Redis has run, from the text of `INFO commandstats` (cmdstat_<name>:calls=N,...). */
export function redisCommandCalls(info: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) out[m[1]] = Number(m[2]);
  return out;
}

/** What ran between two readings of redisCommandCalls: the commands that ran, most calls first, and their total. */
export function redisCommandsBetween(before: Record<string, number>, after: Record<string, number>): { total: number; byCommand: Record<string, number> } {
  const diffs = Object.entries(after).map(([name, n]): [string, number] => [name, n - (before[name] ?? 0)]).filter(([, n]) => n > 0);
  diffs.sort((a, b) => b[1] - a[1]);
  return { total: diffs.reduce((a, [, n]) => a + n, 0), byCommand: Object.fromEntries(diffs) };
}
