import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { LoadResult, LoadSpec } from '../../bench/load-worker';
import { runCommand } from '../../tools/process-kit/child-process';
import { cpuSeconds } from '../../tools/process-kit/proc-stats';
import { FleetChild } from './child';
import { Fleet } from './fleet';

/*
 * `npm run fleet:throughput` (how far more instances scale on one machine): the fleet's throughput for S1's request (REST
 * KYC, cache hit, a fresh txn_id each) with 1, 2 and 3 instances behind HAProxy, as ratios to one
 * instance asked directly, with where each run's CPU went. Everything shares this machine's two
 * cores, so the machine, not the service, is expected to cap it.
 */

const USAGE = 'usage: npm run fleet:throughput -- [--seconds N] [--connections N]';
const ROOT = join(__dirname, '..', '..', '..', '..');

interface Run { label: string; rps: number; p99Ms: number; errors: number; unexpected: number; cpu: Record<string, number> }

async function load(url: string, seconds: number, connections: number, numberBase: number): Promise<LoadResult> {
  const spec: LoadSpec = {
    url, kind: 'kyc-hot', creds: { apiKey: 'demo-key', secret: 'demo-secret' }, connections, durationS: seconds, warmupS: 2,
    expectStatuses: [200], numberBase,
  };
  const r = await runCommand(process.execPath, [join(ROOT, 'dist', 'bench', 'bench', 'load-worker.js'), JSON.stringify(spec)], { timeoutMs: (seconds + 30) * 1000 });
  if (r.code !== 0) throw new Error(`load generator failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as LoadResult;
}

/** CPU seconds of each group of the fleet's processes (the load generator is what is left). */
function cpuOf(groups: Record<string, FleetChild[]>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, children] of Object.entries(groups)) {
    out[name] = children.reduce((sum, c) => sum + (c.pid === undefined ? 0 : cpuSeconds(c.pid)), 0);
  }
  return out;
}

async function main(argv: string[]): Promise<number> {
  let values: { seconds?: string; connections?: string };
  try {
    values = parseArgs({ args: argv, strict: true, options: { seconds: { type: 'string' }, connections: { type: 'string' } } }).values;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const seconds = Number(values.seconds ?? '10');
  const connections = Number(values.connections ?? '32');
  if (!/^\d+$/.test(values.seconds ?? '10') || seconds < 1 || !/^\d+$/.test(values.connections ?? '32') || connections < 1) {
    process.stderr.write(`--seconds and --connections take whole numbers >= 1\n${USAGE}\n`);
    return 2;
  }
  const fleet = await Fleet.start({ root: ROOT, instances: 3, env: { LOG_LEVEL: 'warn' } });
  try {
    const groups = {
      instances: fleet.instances.map((i) => i.child),
      haproxy: [fleet.haproxy.child],
      redis: fleet.redis.nodes.map((n) => n.child),
      simulator: [fleet.simulator],
    };
    const measure = async (label: string, url: string, k: number): Promise<Run> => {
      const before = cpuOf(groups);
      const startedMs = Date.now();
      const r = await load(url, seconds, connections, k * 1_000_000);
      const wall = (Date.now() - startedMs) / 1000;
      const after = cpuOf(groups);
      const cpu = Object.fromEntries(Object.keys(after).map((g) => [g, Math.round(((after[g] ?? 0) - (before[g] ?? 0)) / wall * 100)]));
      return { label, rps: r.rps, p99Ms: r.p99Ms, errors: r.errors, unexpected: r.unexpected, cpu };
    };
    const setServers = async (up: number) => {
      for (const [i, inst] of fleet.instances.entries()) {
        await fleet.haproxy.command(`${i < up ? 'enable' : 'disable'} server verify_customer/${inst.name}`);
      }
      await new Promise((r) => setTimeout(r, 1500));
    };
    const runs: Run[] = [];
    await setServers(3);
    const [first] = fleet.instances;
    if (!first) throw new Error('no instance');
    runs.push(await measure('1 instance, direct', first.url, 1));
    for (const n of [1, 2, 3]) {
      await setServers(n);
      runs.push(await measure(`${n} instance${n > 1 ? 's' : ''} via HAProxy`, fleet.url, n + 1));
    }
    const base = runs[0]?.rps ?? 1;
    const groupsCpu = Object.keys(groups);
    process.stdout.write(`\n| run | req/s | ratio to direct | p99 ms | errors, unexpected | CPU % (${groupsCpu.join(', ')}) |\n|---|--:|--:|--:|--:|---|\n`);
    for (const r of runs) {
      process.stdout.write(`| ${r.label} | ${Math.round(r.rps)} | ${(r.rps / base).toFixed(2)} | ${r.p99Ms.toFixed(1)} | ${r.errors}, ${r.unexpected} | ${groupsCpu.map((g) => r.cpu[g]).join(', ')} |\n`);
    }
    process.stdout.write(`\n${connections} connections, ${seconds} s each after a 2 s warm-up; CPU % is of one core (200 % = the whole machine); the load generator uses the rest.\n`);
    return runs.every((r) => r.errors === 0 && r.unexpected === 0) ? 0 : 1;
  } finally {
    await fleet.stop();
  }
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err: unknown) => {
  process.stderr.write(`fleet:throughput: ${(err as Error).message}\n`);
  process.exitCode = 1;
});
