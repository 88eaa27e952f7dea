import { join } from 'node:path';
import { cpuSeconds } from '../tools/process-kit/proc-stats';
import { AllocProfiles } from './alloc-profile';
import { AbRatio, abLine, abRatios } from './ab-control';
import { AuditSanity, checkAuditRecords } from './audit-sanity';
import { BenchArgs } from './bench-args';
import { FanoutResult, runFanout } from './fanout-phase';
import { ScenarioResult, SoakResult, cpuUsPerRequest } from './report';
import { combineRounds, runScenario, runSoak } from './scenario-runner';
import { KIND_SCOPES } from './request-factory';
import { roundOrder } from './round-order';
import { SCENARIOS, SOAK, Scenario, Target } from './scenarios';
import { MIX_PARTNERS, RunningTarget, Stack, fetchBearer, startTarget } from './stack';

export interface PhaseOutcome {
  results: ScenarioResult[];
  soak?: SoakResult;
  storeMode?: string;
  /** S1+auditPG: its service's answered requests against the rows in PostgreSQL. */
  audit?: AuditSanity;
  /** F1, the subscription fan-out. */
  fanout?: FanoutResult;
  /** A/B runs: each pair's ratio, the control's and the corrected one. */
  ab?: AbRatio[];
  /** The interleaved slices in the order they ran, to look for order effects (docs/performance.md, "A/B runs"). */
  slices?: Slice[];
}

/** One measured slice of an interleaved round: where it ran, what ran just before it, how long its server had been idle. */
export interface Slice {
  id: string;
  target: Target;
  round: number;
  position: number;
  after?: string;
  idleS?: number;
  rps: number;
  cpuUs?: number;
  /** CPU the other servers under test used during this slice (warm-up included), % of one core: work left over from their own slices. */
  othersCpuPct?: number;
}

/** The scenarios of this run: --only's, else all but the A/B one. */
export function wantedScenarios(args: BenchArgs): Scenario[] {
  return SCENARIOS.filter((s) => (args.only === undefined ? s.target !== 'alt' : args.only.has(s.id)));
}

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

function logResult(r: ScenarioResult): void {
  const rounds = r.rpsRounds ? ` (rounds ${r.rpsRounds.join(', ')})` : '';
  log(`${r.id}: ${r.rps.toFixed(0)} req/s${rounds}, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, errors ${r.errors}, unexpected ${r.unexpected}, peak RSS ${r.peakRssMb.toFixed(0)} MB`);
  const routes = Object.entries(r.byRoute ?? {});
  if (routes.length > 1) {
    log(`${r.id} by route: ${routes.map(([route, l]) => `${route}: ${l.count} p50 ${l.p50Ms.toFixed(2)} p99 ${l.p99Ms.toFixed(2)} ms`).join('; ')}`);
  }
}

/** A scenario against S1, round by round (each pair ran in the same round): the median of the ratios. */
function logPaired(rounds: Map<string, ScenarioResult[]>, id: string, against = 'S1'): void {
  const a = rounds.get(against);
  const b = rounds.get(id);
  if (!a || !b) return;
  const ratios = a.map((r, i) => (b[i]?.rps ?? NaN) / r.rps).filter(Number.isFinite).sort((x, y) => x - y);
  const cpu = a.map((r, i) => {
    const other = b[i];
    return other && r.serverCpuPct > 0 && other.serverCpuPct > 0 ? (other.rps / other.serverCpuPct) / (r.rps / r.serverCpuPct) : NaN;
  }).filter(Number.isFinite).sort((x, y) => x - y);
  const median = (xs: number[]) => xs[Math.floor(xs.length / 2)] ?? NaN;
  log(`paired ${id} / ${against}: req/s ${median(ratios).toFixed(3)} (rounds ${ratios.map((x) => x.toFixed(2)).join(' ')}); req per server CPU-s ${median(cpu).toFixed(3)} (rounds ${cpu.map((x) => x.toFixed(2)).join(' ')})`);
}

/**
 * Every server under test runs for the whole bench (an idle one costs nothing), so the runs
 * can be interleaved:
 * 1. the scenarios compared by ratio (B0 B1 B2 S1 S5 S6), in rounds, each scenario in turn;
 * 2. the others one after another (the half-rate runs use S1's measured rate);
 * 3. F1, the subscription fan-out, on a service process of its own, started for it and stopped after;
 * 4. the soak, on a fresh service process, so its RSS is S1's alone.
 * With `alloc` (--alloc-profile), every measured run on the service and on 'alt' samples that process's allocations.
 */
export async function runPhases(stack: Stack, args: BenchArgs, cpuProfDir?: string, alloc?: AllocProfiles): Promise<PhaseOutcome> {
  const wanted = wantedScenarios(args);
  const needed = new Set<Target>(wanted.map((s) => s.target));
  if (args.soak) needed.add('service');
  const running = new Map<Target, RunningTarget>();
  const out: PhaseOutcome = { results: [] };
  try {
    // Services first (in this order), then the baselines, whichever the run needs.
    const services: Target[] = ['service', 'alt', 'auditpg', 'waitrepl'];
    for (const target of [...services, ...[...needed].filter((t) => !services.includes(t))]) {
      if (!needed.has(target) || target === 'fanout') continue;
      // --profile: the service's profiles in cpuProfDir, the audit-on-PostgreSQL and WAIT services' beside them in auditpg/ and waitrepl/.
      const profiled = target === 'service' || target === 'auditpg' || target === 'waitrepl';
      const prof = cpuProfDir && profiled ? { cpuProfDir: target === 'service' ? cpuProfDir : join(cpuProfDir, target) } : {};
      const inspect = alloc !== undefined && (target === 'service' || target === 'alt');
      const t = await startTarget(stack, target, { ...prof, inspect });
      running.set(target, t);
      if (t.storeMode !== undefined) out.storeMode = t.storeMode;
    }
    if (out.storeMode !== undefined && out.storeMode !== 'redis') {
      log(`WARNING: the service reports store "${out.storeMode}", not "redis": results are not the Redis design`);
    }
    // Each service issues its own tokens (its PUBLIC_URL is their issuer), so the scenarios of a
    // service use tokens it issued, fetched once for the whole run (they outlive it: OAUTH_TOKEN_TTL_S).
    for (const [target, t] of running) {
      const its = wanted.filter((s) => s.target === target);
      const scopes = [...new Set(its.flatMap((s) => KIND_SCOPES[s.kind] ?? []))];
      if (scopes.length > 0) t.creds = { ...stack.creds, bearer: await fetchBearer(stack, t.url, scopes.join(' ')) };
      if (its.some((s) => s.kind === 'mix-m1')) {
        t.creds = { ...t.creds ?? stack.creds, mixBearers: await Promise.all(MIX_PARTNERS.map((p) => fetchBearer(stack, t.url, 'sim-swap:check', p))) };
      }
    }
    const on = (s: Scenario) => running.get(s.target) as RunningTarget;
    const allocWindow = async (s: Scenario, round: number) => {
      const port = on(s).inspectPort;
      return alloc && port !== undefined ? { window: await alloc.window(s.id, round, port) } : {};
    };

    const interleaved = wanted.filter((s) => s.interleaved);
    const rounds = new Map<string, ScenarioResult[]>(interleaved.map((s) => [s.id, []]));
    const sliceS = args.durationS / args.rounds;
    const slices: Slice[] = [];
    const lastRanAt = new Map<Target, number>();
    out.slices = slices;
    for (let r = 0; r < args.rounds; r++) {
      // Each round starts one scenario later, a slice follows one on another server whenever it can
      // (round-order.ts), and every slice gets a short warm-up: a server that was idle while the
      // others ran starts cold (smaller heap, more GC), so no scenario may always be the one
      // measured right after an idle spell, nor always the one measured right after itself.
      const order = roundOrder(interleaved, r, slices.at(-1)?.target);
      for (const [position, s] of order.entries()) {
        const warmupS = r === 0 ? args.warmupS : Math.min(1, args.warmupS);
        const idleFrom = lastRanAt.get(s.target);
        const idleS = idleFrom === undefined ? undefined : (Date.now() - idleFrom) / 1000;
        const others = [...running.values()].filter((t) => t !== on(s));
        const othersBefore = others.reduce((a, t) => a + cpuSeconds(t.pid), 0);
        const startedMs = Date.now();
        const res = await runScenario(stack, on(s), s, { durationS: sliceS, warmupS, round: r, rounds: args.rounds, ...await allocWindow(s, r) });
        const othersCpuPct = ((others.reduce((a, t) => a + cpuSeconds(t.pid), 0) - othersBefore) / ((Date.now() - startedMs) / 1000)) * 100;
        lastRanAt.set(s.target, Date.now());
        rounds.get(s.id)?.push(res);
        const after = slices.at(-1)?.id;
        slices.push({
          id: s.id, target: s.target, round: r, position, rps: Math.round(res.rps), cpuUs: cpuUsPerRequest(res), othersCpuPct: Math.round(othersCpuPct * 10) / 10,
          ...(after ? { after } : {}), ...(idleS !== undefined ? { idleS: Math.round(idleS * 10) / 10 } : {}),
        });
      }
    }
    for (const s of interleaved) {
      const r = combineRounds(rounds.get(s.id) as ScenarioResult[]);
      out.results.push(r);
      logResult(r);
    }
    for (const id of ['S1+auditPG', 'S1+WAIT', 'C1', 'D1', 'G1', 'B3', 'B1', 'S2']) logPaired(rounds, id);
    logPaired(rounds, 'S2', 'B4');
    if (args.abControl !== undefined) {
      out.ab = abRatios(rounds, args.abControl);
      for (const r of out.ab) log(abLine(r));
    }
    const auditTarget = running.get('auditpg');
    if (auditTarget && stack.auditPg) {
      const auditScenario = interleaved.find((s) => s.target === 'auditpg');
      // Two stops per round (warm-up, measured slice), each with up to `connections` requests in flight.
      const allowance = (auditScenario?.connections ?? 0) * 2 * args.rounds;
      out.audit = await checkAuditRecords(auditTarget, stack.auditPg, allowance);
      const { answered, rows, outcomes, buffered } = out.audit;
      log(`S1+auditPG audit records: ${rows} rows for ${answered} answered requests; by outcome ${JSON.stringify(outcomes)}; buffered ${buffered}`);
    }

    for (const s of wanted.filter((x) => !x.interleaved)) {
      const s1Rps = out.results.find((r) => r.id === (s.rateOf ?? 'S1'))?.rps;
      const r = await runScenario(stack, on(s), s, { durationS: args.durationS, warmupS: args.warmupS, s1Rps, round: 0, rounds: 1, ...await allocWindow(s, 0) });
      out.results.push(r);
      logResult(r);
    }

    if (args.fanout) {
      // --profile: F1's service's profile beside the others, in fanout/.
      const f = await runFanout(stack, args.fanout, cpuProfDir ? join(cpuProfDir, 'fanout') : undefined);
      out.fanout = f;
      out.storeMode ??= f.storeMode;
      if (f.storeMode !== 'redis') log(`WARNING: F1's service reports store "${f.storeMode ?? '-'}", not "redis": delivery was not BullMQ's`);
      log(`F1: ${f.deliveriesPerS.toFixed(0)} deliveries/s, p50 ${f.fromSent.p50Ms.toFixed(0)} ms, p99 ${f.fromSent.p99Ms.toFixed(0)} ms, max ${f.fromSent.maxMs.toFixed(0)} ms; `
        + `${f.distinctEvents} of ${f.expected} events, ${f.duplicates} duplicates, ${f.lost} lost; service CPU ${f.cpuPct.service.toFixed(0)} %`);
    }

    if (args.soak) {
      await running.get('service')?.stop();
      const fresh = await startTarget(stack, 'service');
      running.set('service', fresh);
      log(`soak: ${SOAK.amount} S1 requests on a fresh service process (10 s warm-up first)`);
      out.soak = await runSoak(stack, fresh, SOAK, { warmupS: 10 });
      log(`soak: RSS ${out.soak.rssStartMb.toFixed(1)} -> ${out.soak.rssEndMb.toFixed(1)} MB (peak ${out.soak.rssPeakMb.toFixed(1)})`);
    }
  } finally {
    for (const t of running.values()) await t.stop();
  }
  return out;
}
