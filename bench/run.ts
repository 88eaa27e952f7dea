import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { abTargets } from './ab-control';
import { AllocProfiles } from './alloc-profile';
import { summariseAllocDir } from './alloc-summary';
import { argsOrExit } from './bench-args';
import { summariseProfiles } from './profile-summary';
import { pinPlacement } from './processes';
import { PhaseOutcome, runPhases, wantedScenarios } from './phases';
import { fanoutTable } from './fanout-report';
import { cpuUsPerRequest, evaluateTargets, resultsTable, soakTable, targetsTable } from './report';
import { costsTable } from './request-costs';
import { SCENARIOS } from './scenarios';
import { startStack, stopStack } from './stack';
import { repoRoot } from '../src/kernel/repo-paths';

/**
 * `npm run bench`: the service next to the fastest thing that could do its job, in one run.
 * Starts redis-server, the simulator (synthetic) and each server under test, drives load from a
 * separate process, prints the table and the target ratios, writes bench/results/*.json.
 */

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

async function main(): Promise<void> {
  const args = argsOrExit(process.argv.slice(2), {
    err: (text) => process.stderr.write(text),
    out: (text) => process.stdout.write(text),
    exit: (code) => process.exit(code),
  });
  const root = repoRoot();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const resultsDir = join(root, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const placement = pinPlacement(args.pin);
  const loadBefore = loadavg();
  log(`${placement.note}; load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`);
  if ((loadBefore[0] ?? 0) > 0.5) log('WARNING: the machine is busy (1-min load above 0.5): other processes share the cores, ratios will be noisy');

  const wanted = wantedScenarios(args);
  const stack = await startStack(root, placement, {
    auditPg: wanted.some((s) => s.target === 'auditpg'), replicated: wanted.some((s) => s.target === 'waitrepl'),
  });
  const cpuProfDir = args.profile ? join(resultsDir, `profile-${stamp}`) : undefined;
  const alloc = args.allocProfile ? new AllocProfiles(join(resultsDir, `alloc-profile-${stamp}`)) : undefined;
  let outcome: PhaseOutcome;
  try {
    outcome = await runPhases(stack, args, cpuProfDir, alloc);
  } finally {
    if (!(await stopStack(stack))) log('WARNING: redis-server was gone by the end of the run (killed from outside?): check errors and the store mode');
  }
  const { results, soak, storeMode, audit, fanout, ab, slices } = outcome;

  const order = (id: string) => SCENARIOS.findIndex((s) => s.id === id);
  results.sort((a, b) => order(a.id) - order(b.id));
  const targets = [...evaluateTargets(results, soak, audit, fanout, args.soakOff), ...abTargets(ab ?? [])];
  const loadAfter = loadavg();
  const out = [
    '',
    ...(results.length > 0 ? [resultsTable(results), '', costsTable(results.map((r) => ({ id: r.id, cpuUsPerRequest: cpuUsPerRequest(r), costs: r.costs }))), ''] : []),
    ...(fanout ? [fanoutTable(fanout), ''] : []),
    ...(soak ? [soakTable(soak), ''] : []),
    targetsTable(targets),
    '',
    `Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}; ${placement.note}.`,
    `Load average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}; state store: ${storeMode ?? '-'}.`,
    ...(results.length > 0
      ? [`Each scenario: ${args.warmupS} s warm-up, ${args.durationS} s measured (${interleavedIds(results)} in ${args.rounds} interleaved rounds, median shown); fresh txn_id per request.`]
      : []),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  const file = join(resultsDir, `bench-${stamp}.json`);
  writeFileSync(file, `${JSON.stringify({
    startedAt: stamp, node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model, placement: placement.note,
    loadavgBefore: loadBefore, loadavgAfter: loadAfter, storeMode, durationS: args.durationS, warmupS: args.warmupS, rounds: args.rounds,
    results, soak, audit, fanout, ab, targets, slices,
  }, null, 2)}\n`);
  process.stdout.write(`\nresults: ${file}\n`);
  if (cpuProfDir && results.length > 0) process.stdout.write(`\n${summariseProfiles(cpuProfDir)}\n`);
  const auditProfDir = cpuProfDir ? join(cpuProfDir, 'auditpg') : undefined;
  if (auditProfDir && existsSync(auditProfDir)) process.stdout.write(`\nS1+auditPG's service:\n${summariseProfiles(auditProfDir)}\n`);
  const waitProfDir = cpuProfDir ? join(cpuProfDir, 'waitrepl') : undefined;
  if (waitProfDir && existsSync(waitProfDir)) process.stdout.write(`\nS1+WAIT's service:\n${summariseProfiles(waitProfDir)}\n`);
  const fanoutProfDir = cpuProfDir ? join(cpuProfDir, 'fanout') : undefined;
  if (fanoutProfDir && existsSync(fanoutProfDir)) process.stdout.write(`\nF1's service:\n${summariseProfiles(fanoutProfDir)}\n`);
  if (alloc) {
    // Sampling adds work to the service: this run's req/s and CPU per request are not comparable with an unsampled run's.
    process.stdout.write(alloc.sampled > 0
      ? `\nAllocations of the service under test (${alloc.dir}; sampling adds work to the service: compare this run's req/s with no unsampled run):\n${summariseAllocDir(alloc.dir)}\n`
      : '\n--alloc-profile: no measured run was on the service (or alt), nothing was sampled\n');
  }
}

function interleavedIds(results: { id: string }[]): string {
  return SCENARIOS.filter((s) => s.interleaved && results.some((r) => r.id === s.id)).map((s) => s.id).join(' ');
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
