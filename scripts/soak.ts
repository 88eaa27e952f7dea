import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { Redis } from 'ioredis';
import { RedisProcess, startRedis } from '../test/support/redis-server';
import { DEMO } from '../test/support/signing';
import { LoadOperation, Sample, startSteadyLoad } from '../test/support/steady-load';
import { MB, Row, avg, percentile, table, trend } from './soak-report';
import { repoRoot } from '../src/repo-paths';

/*
 * Issue #7, item 5: the soak. Ten minutes (SOAK_SECONDS) at a steady rate (SOAK_RATE) of
 * KYC and SIM swap requests with fresh txn_ids, against the built service as a real process
 * in front of the synthetic simulator, with state on a redis-server of its own when one is
 * installed. It reads the service's heap and RSS from /metrics every second and keeps, per
 * SOAK_SAMPLE_S window, the mean RSS and the lowest heap reading (the live set after a GC,
 * without the garbage sawtooth). At the end it prints the table and a verdict (flat or not)
 * and writes the figures as JSON. Exit code 0 only when memory is flat, every request got a
 * well-formed answer and the service exited 0 on SIGTERM.
 *
 *   npm run build && tsc -p scripts/tsconfig.json && node dist/scripts/scripts/soak.js
 */

interface Settings {
  seconds: number;
  rate: number;
  sampleS: number;
  warmupS: number;
  redis: 'auto' | 'on' | 'off';
  flatPct: number;
  rssFloorMb: number;
  heapFloorMb: number;
  numbers: number;
  out: string;
}

const log = (msg: string) => process.stderr.write(`soak: ${msg}\n`);


function numEnv(name: string, def: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return def;
  const v = Number(raw);
  if (!Number.isFinite(v) || v < min || v > max) throw new Error(`${name} must be a number ${min}..${max} (got "${raw}")`);
  return v;
}

function readSettings(root: string): Settings {
  const seconds = numEnv('SOAK_SECONDS', 600, 30, 86_400);
  const redis = process.env.SOAK_REDIS ?? 'auto';
  if (redis !== 'auto' && redis !== 'on' && redis !== 'off') throw new Error(`SOAK_REDIS must be auto, on or off (got "${redis}")`);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return {
    seconds,
    rate: numEnv('SOAK_RATE', 200, 1, 20_000),
    sampleS: numEnv('SOAK_SAMPLE_S', 10, 1, 600),
    // Not part of the trend: at 200 req/s V8 keeps growing its heap (and so RSS) for about two
    // minutes before it settles, as JIT, caches and socket pools fill.
    warmupS: numEnv('SOAK_WARMUP_S', seconds >= 360 ? 120 : Math.floor(seconds / 3), 0, seconds / 2),
    redis,
    flatPct: numEnv('SOAK_FLAT_PCT', 10, 0, 1000),
    rssFloorMb: numEnv('SOAK_RSS_FLOOR_MB', 20, 0, 10_000),
    heapFloorMb: numEnv('SOAK_HEAP_FLOOR_MB', 5, 0, 10_000),
    numbers: numEnv('SOAK_NUMBERS', 200_000, 1, 90_000_000),
    out: process.env.SOAK_OUT ?? join(root, 'dist', 'soak', `soak-${stamp}.json`),
  };
}

/** Starts `node args`, resolves with the first stdout match of re; stdout keeps draining after. */
async function startNode(script: string, env: NodeJS.ProcessEnv, re: RegExp, what: string): Promise<{ proc: ChildProcess; match: RegExpMatchArray; tail: () => string }> {
  const proc = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  let found: RegExpMatchArray | null = null;
  const keep = (d: Buffer) => {
    tail = (tail + d.toString('utf8')).slice(-8000);
    found ??= re.exec(tail);
  };
  proc.stdout.on('data', keep);
  proc.stderr.on('data', keep);
  const deadline = Date.now() + 15_000;
  while (!found) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`${what} did not start:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { proc, match: found, tail: () => tail };
}

async function stop(proc: ChildProcess | undefined): Promise<number | null> {
  if (!proc || proc.exitCode !== null) return proc?.exitCode ?? null;
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

function metric(text: string, name: string): number {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)$`, 'm').exec(text);
  if (!m) throw new Error(`/metrics has no ${name}`);
  return Number(m[1]);
}

async function main(): Promise<void> {
  const root = repoRoot();
  const s = readSettings(root);
  const mainJs = join(root, 'dist', 'src', 'main.js');
  const simJs = join(root, 'dist', 'src', 'simulator', 'main.js');
  if (!existsSync(mainJs) || !existsSync(simJs)) throw new Error('dist/ is missing: run "npm run build" first');

  const hasRedis = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
  if (s.redis === 'on' && !hasRedis) throw new Error('SOAK_REDIS=on but redis-server is not installed');
  const useRedis = s.redis === 'on' || (s.redis === 'auto' && hasRedis);
  if (s.seconds < 360) log('shorter than 6 minutes: the warm-up may not cover V8 sizing its heap, so RSS can read as growing');
  log(`${s.seconds} s at ${s.rate} req/s, sampled every ${s.sampleS} s, warm-up ${s.warmupS} s; state ${useRedis ? 'on a redis-server of its own' : 'in process memory'}; ` +
    `${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  let redis: RedisProcess | undefined;
  let redisClient: Redis | undefined;
  let sim: ChildProcess | undefined;
  let svc: ChildProcess | undefined;
  const cleanup = async () => {
    await stop(svc);
    await stop(sim);
    redisClient?.disconnect();
    await redis?.stop();
  };
  process.once('SIGINT', () => { log('interrupted'); void cleanup().then(() => process.exit(130)); });

  try {
    const simStarted = await startNode(simJs, { PATH: process.env.PATH, SIMULATOR_PORT: '0', SIMULATOR_SYNTHETIC: 'true' }, /HLR_URL=(\S+) SIM_URL=(\S+)/, 'simulator');
    sim = simStarted.proc;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: process.env.SOAK_LOG_LEVEL ?? 'info',
      HLR_URL: simStarted.match[1], SIM_URL: simStarted.match[2],
    };
    if (useRedis) {
      redis = await startRedis();
      env.REDIS_URL = redis.url;
      redisClient = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    } else {
      // In memory, txn_id records live for TXN_TTL_S (a day by default) and would grow all run long by design.
      env.TXN_TTL_S = '60';
      log('no Redis: TXN_TTL_S=60 so the in-memory txn_id records reach their steady size within the warm-up');
    }
    const svcStarted = await startNode(mainJs, env, /"url":"(http:\/\/[^"]+)"/, 'service');
    svc = svcStarted.proc;
    const url = svcStarted.match[1];
    const pid = svc.pid;
    log(`service pid ${pid} on ${url}`);
    if (useRedis) {
      for (let i = 0; ; i++) {
        const ready = (await (await fetch(`${url}/readyz`)).json()) as { store?: string };
        if (ready.store === 'redis') break;
        if (i > 200) throw new Error(`the service never reached Redis (store ${ready.store})`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    // Numbers spread over SOAK_NUMBERS subscribers: caches fill, hit and expire as in production.
    let rnd = 0x2545f491;
    const random = () => {
      rnd ^= rnd << 13; rnd ^= rnd >>> 17; rnd ^= rnd << 5;
      return (rnd >>> 0) / 2 ** 32;
    };
    let window: Sample[] = [];
    const totals = { sent: 0, answers: {} as Record<string, number>, malformed: 0, missing: 0, slowestMs: 0 };
    const problems: string[] = [];
    const load = startSteadyLoad({
      baseUrl: url, ratePerSecond: s.rate, maxRequests: Math.ceil(s.rate * s.seconds), maxDurationMs: s.seconds * 1000,
      // Synthetic numbers include 5 % non-subscribers: their SIM swap is a 404 by contract.
      allowedStatuses: [200, 404], keepSamples: false,
      next: () => {
        const op: LoadOperation = random() < 0.5 ? 'kyc' : 'sim_swap';
        const msisdn = `2557${String(10_000_000 + Math.floor(random() * s.numbers)).slice(-8)}`;
        return { op, msisdn, credentials: DEMO, tag: 'soak' };
      },
      onSample: (x) => {
        window.push(x);
        totals.sent++;
        if (x.status !== undefined) {
          const k = `${x.status} ${x.code ?? '-'}`;
          totals.answers[k] = (totals.answers[k] ?? 0) + 1;
          totals.slowestMs = Math.max(totals.slowestMs, x.ms);
        }
        if (x.outcome === 'malformed') totals.malformed++;
        if (x.outcome === 'no-answer') totals.missing++;
        if (x.outcome !== 'answered' && problems.length < 20) problems.push(`${x.op} ${x.msisdn}: ${x.error ?? x.problems?.join('; ')}`);
      },
    });

    // /metrics is read every second; each row keeps the window's mean and peak RSS and its lowest heap.
    const rows: Row[] = [];
    const started = Date.now();
    let lastAt = started;
    let reads: { rss: number; heapUsed: number; heapTotal: number; loopP99: number }[] = [];
    const read = async (): Promise<void> => {
      const text = await (await fetch(`${url}/metrics`)).text();
      reads.push({
        rss: metric(text, 'process_resident_memory_bytes') / MB,
        heapUsed: metric(text, 'nodejs_heap_size_used_bytes') / MB,
        heapTotal: metric(text, 'nodejs_heap_size_total_bytes') / MB,
        loopP99: metric(text, 'nodejs_eventloop_lag_p99_seconds') * 1000,
      });
    };
    const row = async (): Promise<void> => {
      const now = Date.now();
      if (reads.length === 0) await read();
      const r = reads;
      const done = window;
      reads = [];
      window = [];
      const ms = done.filter((x) => x.status !== undefined).map((x) => x.ms).sort((a, b) => a - b);
      const answers: Record<string, number> = {};
      for (const x of done) if (x.status !== undefined) answers[`${x.status} ${x.code ?? '-'}`] = (answers[`${x.status} ${x.code ?? '-'}`] ?? 0) + 1;
      const out: Row = {
        t: Math.round((now - started) / 1000),
        sent: done.length,
        ratePerS: done.length / ((now - lastAt) / 1000),
        answers,
        bad: done.filter((x) => x.outcome !== 'answered').length,
        p50Ms: percentile(ms, 50), p99Ms: percentile(ms, 99), maxMs: ms[ms.length - 1] ?? 0,
        rssMb: avg(r.map((x) => x.rss)), rssMaxMb: Math.max(...r.map((x) => x.rss)),
        heapUsedMb: Math.min(...r.map((x) => x.heapUsed)), heapUsedMaxMb: Math.max(...r.map((x) => x.heapUsed)),
        heapTotalMb: r[r.length - 1].heapTotal,
        eventLoopP99Ms: Math.max(...r.map((x) => x.loopP99)),
      };
      if (redisClient) {
        const info = await redisClient.info('memory');
        out.redisUsedMb = Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0) / MB;
        out.redisKeys = await redisClient.dbsize();
      }
      lastAt = now;
      rows.push(out);
      log(`t=${out.t}s sent ${out.sent} (${out.ratePerS.toFixed(0)}/s) bad ${out.bad} p99 ${out.p99Ms} ms; RSS ${out.rssMb.toFixed(1)} MB, heap ${out.heapUsedMb.toFixed(1)}–${out.heapUsedMaxMb.toFixed(1)} MB`);
    };
    const fail = (err: unknown) => log(`reading /metrics failed: ${(err as Error).message}`);
    const reader = setInterval(() => { read().catch(fail); }, 1000);
    const sampler = setInterval(() => { row().catch(fail); }, s.sampleS * 1000);
    await load.done;
    clearInterval(reader);
    clearInterval(sampler);
    // A last row only for a window long enough to mean something.
    if (Date.now() - lastAt >= (s.sampleS * 1000) / 2) await row();

    const exitCode = await stop(svc);
    const rss = trend(rows, s.warmupS, 'RSS', (r) => r.rssMb, (r) => r.rssMaxMb, s.flatPct, s.rssFloorMb);
    const heap = trend(rows, s.warmupS, 'heap used (window minimum)', (r) => r.heapUsedMb, (r) => r.heapUsedMaxMb, s.flatPct, s.heapFloorMb);
    const clean = totals.malformed === 0 && totals.missing === 0;
    const verdict = rss.flat && heap.flat && clean && exitCode === 0;

    process.stdout.write(`\n${table(rows)}\n\n`);
    for (const t of [heap, rss]) {
      process.stdout.write(`${t.metric}: first third ${t.firstThirdMb} MB, last third ${t.lastThirdMb} MB, growth ${t.growthMb} MB ` +
        `(tolerance ${t.toleranceMb} MB), peak ${t.firstThirdPeakMb} → ${t.lastThirdPeakMb} MB, slope ${t.slopeMbPerHour} MB/h → ${t.flat ? 'flat' : 'NOT FLAT'}\n`);
    }
    process.stdout.write(`requests: ${totals.sent} sent, ${Object.entries(totals.answers).sort().map(([k, n]) => `${n} × ${k}`).join(', ')}; ` +
      `malformed ${totals.malformed}, missing ${totals.missing}, slowest ${totals.slowestMs} ms; service exit code ${exitCode}\n`);
    if (problems.length) process.stdout.write(`first problems:\n  ${problems.join('\n  ')}\n`);
    process.stdout.write(`verdict: ${verdict ? 'FLAT' : 'NOT FLAT'}\n`);

    mkdirSync(dirname(s.out), { recursive: true });
    writeFileSync(s.out, `${JSON.stringify({
      settings: { ...s, state: useRedis ? 'redis' : 'memory', node: process.version, cpus: cpus().length },
      totals, trends: [heap, rss], verdict: verdict ? 'flat' : 'not flat', serviceExitCode: exitCode, rows,
    }, null, 2)}\n`);
    log(`figures written to ${s.out}`);
    process.exitCode = verdict ? 0 : 1;
  } finally {
    await cleanup();
  }
}

main().catch((err) => {
  log((err as Error).stack ?? String(err));
  process.exit(1);
});
