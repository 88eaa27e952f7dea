import { ScenarioResult, Target, cpuUsPerRequest } from './report';
import { ALT_TWIN, altOf } from './scenarios';

/**
 * A/B runs (BENCH_ALT_ROOT / BENCH_ALT_NODE_FLAGS): each `alt` scenario is paired, round by round,
 * with its twin on the service. The two slots are not alike (docs/performance.md, "A/B runs"), so
 * every A/B run also measures a control pair, a scenario whose code the change does not touch, on
 * both slots; its ratio is the slot bias of that round, and each A/B ratio is divided by it.
 */

/** One A/B pair's ratios: raw, the control's, and corrected (raw / control), each the median over rounds of that round's ratios. */
export interface AbRatio {
  alt: string;
  twin: string;
  control: string;
  rps: AbMeasure;
  /** Requests per server CPU-second (the inverse of CPU µs per request). */
  cpu: AbMeasure;
}

/** Medians over rounds; `geomean` and `se` (its relative standard error) of the corrected rounds say what the run resolves. */
export interface AbMeasure {
  raw: number;
  control: number;
  corrected: number;
  rounds: number[];
  geomean: number;
  se: number;
}

/** Geometric mean of ratios and the standard error of their mean log, as a relative error (0.1 = ±10 %). */
function geo(xs: number[]): { geomean: number; se: number } {
  const logs = xs.filter((x) => Number.isFinite(x) && x > 0).map(Math.log);
  if (logs.length === 0) return { geomean: NaN, se: NaN };
  const mean = logs.reduce((a, x) => a + x, 0) / logs.length;
  const sd = logs.length > 1 ? Math.sqrt(logs.reduce((a, x) => a + (x - mean) ** 2, 0) / (logs.length - 1)) : NaN;
  return { geomean: Math.exp(mean), se: Math.exp(sd / Math.sqrt(logs.length)) - 1 };
}

const median = (xs: number[]): number => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

const perCpuS = (r: ScenarioResult | undefined): number => {
  const us = r && cpuUsPerRequest(r);
  return us === undefined ? NaN : 1e6 / us;
};

/** Per round: alt / twin. */
function roundRatios(rounds: Map<string, ScenarioResult[]>, alt: string, f: (r: ScenarioResult | undefined) => number): number[] {
  const a = rounds.get(alt) ?? [];
  const b = rounds.get(ALT_TWIN[alt]) ?? [];
  return a.map((r, i) => f(r) / f(b[i]));
}

/** The control-corrected ratio of every A/B pair in the run but the control's own. */
export function abRatios(rounds: Map<string, ScenarioResult[]>, control: string): AbRatio[] {
  const controlAlt = altOf(control);
  if (controlAlt === undefined || !rounds.has(controlAlt) || !rounds.has(control)) return [];
  const out: AbRatio[] = [];
  for (const alt of Object.keys(ALT_TWIN)) {
    if (alt === controlAlt || !rounds.has(alt) || !rounds.has(ALT_TWIN[alt])) continue;
    const measure = (f: (r: ScenarioResult | undefined) => number) => {
      const raw = roundRatios(rounds, alt, f);
      const ctl = roundRatios(rounds, controlAlt, f);
      const corrected = raw.map((x, i) => x / (ctl[i] ?? NaN));
      return { raw: median(raw), control: median(ctl), corrected: median(corrected), rounds: corrected.map((x) => Math.round(x * 100) / 100), ...geo(corrected) };
    };
    out.push({ alt, twin: ALT_TWIN[alt], control: `${controlAlt} / ${control}`, rps: measure((r) => r?.rps ?? NaN), cpu: measure(perCpuS) });
  }
  return out;
}

/** A line for the log: raw, control and corrected, both measures. */
export function abLine(r: AbRatio): string {
  const f = (m: AbMeasure) => `raw ${m.raw.toFixed(3)}, control ${m.control.toFixed(3)}, corrected ${m.corrected.toFixed(3)}`
    + ` (rounds ${m.rounds.join(' ')}; geometric mean ${m.geomean.toFixed(3)} ± ${(m.se * 100).toFixed(1)} %)`;
  return `A/B ${r.alt} / ${r.twin}, control ${r.control}: req/s ${f(r.rps)}; req per server CPU-s ${f(r.cpu)}`;
}

/** The target table's rows for the A/B pairs: information, the corrected ratio first. */
export function abTargets(ratios: AbRatio[]): Target[] {
  const f = (m: AbMeasure) => `${m.corrected.toFixed(2)} (raw ${m.raw.toFixed(2)} / control ${m.control.toFixed(2)}; geo. mean ${m.geomean.toFixed(2)} ± ${(m.se * 100).toFixed(0)} %)`;
  return ratios.map((r) => ({
    name: `A/B ${r.alt} / ${r.twin}, corrected by the control ${r.control}`, value: f(r.rps), cpu: f(r.cpu), goal: 'info', met: null, throughputMet: null,
  }));
}
