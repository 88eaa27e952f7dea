import { join } from 'node:path';
import axios from 'axios';
import { Pool } from 'undici';
import { HlrHttpClient, parseHlrBody } from '../src/verification/upstream/hlr-http-client';
import { undiciAdapter } from '../src/verification/upstream/undici-adapter';
import { noopMetrics } from '../src/verification/ports/metrics';
import { repoRoot } from '../src/kernel/repo-paths';
import { startNode } from '../tools/process-kit/child-process';

/**
 * CPU per upstream call, by client, in one process (`node dist/bench/bench/upstream-client.js
 * [rounds] [calls]`): the simulator (synthetic) in a child process, each variant making `calls`
 * HLR lookups of distinct numbers, 32 in flight, in interleaved rounds; CPU of this process
 * (user + system) per call, median over rounds, and each variant's ratio to undici's own
 * request in the same round. Variants: the service's HttpUpstream on undici (default) and on
 * node:http (axios's adapter), axios alone on each, opossum's share, and bare undici (the B4
 * floor). The numbers are this process's CPU only; the simulator's is not counted.
 */
const BREAKER = { errorThresholdPercentage: 50, volumeThreshold: 1_000_000, windowMs: 10_000, resetTimeoutMs: 5_000 };
const CONCURRENCY = 32;

type Lookup = (msisdn: string) => Promise<unknown>;

async function timed(lookup: Lookup, calls: number, base: number): Promise<number> {
  let next = 0;
  const cpu = process.cpuUsage();
  const worker = async () => {
    while (next < calls) {
      const n = next++;
      await lookup(`2557${String(base + n).padStart(8, '0')}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / calls;
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 5);
  const calls = Number(process.argv[3] ?? 4000);
  const sim = await startNode([join(repoRoot(), 'dist/src/simulator/main.js')], {
    env: { PATH: process.env.PATH, SIMULATOR_PORT: '0', SIMULATOR_HOST: '127.0.0.1', SIMULATOR_SYNTHETIC: 'true' },
    ready: /HLR_URL=(\S+)\/hlr SIM_URL=/, what: 'simulator', output: 'stdout', keepChars: 4000,
  });
  const hlrUrl = `${(sim.match as RegExpExecArray)[1]}/hlr`;
  const opts = { baseUrl: hlrUrl, timeoutMs: 2000, maxSockets: 64, breaker: BREAKER, metrics: noopMetrics };
  const viaUndici = new HlrHttpClient(opts);
  const viaNode = new HlrHttpClient({ ...opts, transport: 'node-http' });
  const axiosNode = axios.create({ baseURL: hlrUrl, validateStatus: () => true });
  const pool = new Pool(new URL(hlrUrl).origin, { connections: 64 });
  const adapter = undiciAdapter(hlrUrl, { connections: 64 });
  const axiosUndici = axios.create({ baseURL: hlrUrl, validateStatus: () => true, adapter: adapter.adapter });
  const raw: Lookup = async (m) => {
    const res = await pool.request({ path: `/hlr/subscribers/${m}`, method: 'GET', headers: { accept: 'application/json' } });
    const body = await res.body.text();
    return res.statusCode === 200 ? parseHlrBody(JSON.parse(body)) : null;
  };
  const variants: [string, Lookup][] = [
    ['HttpUpstream on undici (service)', (m) => viaUndici.lookup(m).catch(() => null)],
    ['HttpUpstream on node:http (before)', (m) => viaNode.lookup(m).catch(() => null)],
    ['axios on undici adapter, no breaker', (m) => axiosUndici.get(`/subscribers/${m}`, { signal: AbortSignal.timeout(2000) })],
    ['axios on node:http, no breaker', (m) => axiosNode.get(`/subscribers/${m}`, { signal: AbortSignal.timeout(2000) })],
    ['undici Pool.request + JSON.parse (B4 floor)', raw],
  ];
  const perRound: number[][] = variants.map(() => []);
  let base = 0;
  for (const [, lookup] of variants) await timed(lookup, 500, (base += 500)); // warm-up, JIT
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < variants.length; i++) {
      const v = (i + r) % variants.length;
      perRound[v].push(await timed(variants[v][1], calls, (base += calls)));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const floor = variants.length - 1;
  process.stdout.write(`| client | CPU µs per call (median of ${rounds} rounds of ${calls}) | ÷ bare undici, paired |\n|---|--:|--:|\n`);
  variants.forEach(([name], v) => {
    const paired = median(perRound[v].map((x, r) => x / perRound[floor][r]));
    process.stdout.write(`| ${name} | ${median(perRound[v]).toFixed(1)} | ${paired.toFixed(2)} |\n`);
  });
  viaUndici.upstream.shutdown();
  viaNode.upstream.shutdown();
  await pool.close();
  await adapter.close();
  await sim.stop();
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
