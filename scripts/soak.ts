import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { Redis } from 'ioredis';
import { StartedProcess, commandSucceeds, startNode } from '../tools/process-kit/child-process';
import { waitForStore } from '../tools/process-kit/net-wait';
import { RedisProcess, startRedis } from '../tools/process-kit/redis-server';
import { addSample, emptyRow, formatAnswers, summarise } from '../test/support/fault-report';
import { DEMO } from '../test/support/signing';
import { LoadOperation, Sample, startSteadyLoad } from '../test/support/steady-load';
import { MB, Row, avg, percentile, table, trend } from './soak-report';
import { repoRoot } from '../src/kernel/repo-paths';
import { SOAK_USAGE, SoakUsageError, readSettings } from './soak-settings';

/*
 * The soak, to show memory stays flat over time. Ten minutes (SOAK_SECONDS) at a steady rate (SOAK_RATE) of
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

const log = (msg: string) => process.stderr.write(`soak: ${msg}\n`);

/** Starts `node script`; resolves once its output matches `ready` (the tail of its output is kept for errors). */
function startNodeScript(script: string, env: NodeJS.ProcessEnv, ready: RegExp, what: string): Promise<StartedProcess> {
  return startNode([script], { env, ready, what, keepChars: 8000 });
}

function metric(text: string, name: string): number {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)$`, 'm').exec(text);
  if (!m) throw new Error(`/metrics has no ${name}`);
  return Number(m[1]);
}

async function main(): Promise<void> {
  const root = repoRoot();
  const s = readSettings(process.argv.slice(2), process.env, root);
  if (s === 'help') {
    process.stdout.write(`${SOAK_USAGE}\n`);
    return;
  }
  const mainJs = join(root, 'dist', 'src', 'main.js');
  const simJs = join(root, 'dist', 'src', 'simulator', 'main.js');
  if (!existsSync(mainJs) || !existsSync(simJs)) throw new Error('dist/ is missing: run "npm run build" first');

  const hasRedis = commandSucceeds('redis-server', ['--version']);
  if (s.redis === 'on' && !hasRedis) throw new Error('SOAK_REDIS=on but redis-server is not installed');
  const useRedis = s.redis === 'on' || (s.redis === 'auto' && hasRedis);
  if (s.seconds < 360) log('shorter than 6 minutes: the warm-up may not cover V8 sizing its heap, so RSS can read as growing');
  log(`${s.seconds} s at ${s.rate} req/s, sampled every ${s.sampleS} s, warm-up ${s.warmupS} s; state ${useRedis ? 'on a redis-server of its own' : 'in process memory'}; ` +
    `${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  let redis: RedisProcess | undefined;
  let redisClient: Redis | undefined;
  let sim: StartedProcess | undefined;
  let svc: StartedProcess | undefined;
  const cleanup = async () => {
    await svc?.stop(15_000);
    await sim?.stop(15_000);
    redisClient?.disconnect();
    await redis?.stop();
  };
  process.once('SIGINT', () => { log('interrupted'); void cleanup().then(() => process.exit(130)); });

  try {
    sim = await startNodeScript(simJs, { PATH: process.env.PATH, SIMULATOR_PORT: '0', SIMULATOR_SYNTHETIC: 'true' }, /HLR_URL=(\S+) SIM_URL=(\S+)/, 'simulator');
    const simUrls = sim.match as RegExpExecArray;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: process.env.SOAK_LOG_LEVEL ?? 'info',
      HLR_URL: simUrls[1], SIM_URL: simUrls[2],
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
    svc = await startNodeScript(mainJs, env, /"url":"(http:\/\/[^"]+)"/, 'service');
    const url = (svc.match as RegExpExecArray)[1];
    log(`service pid ${svc.pid} on ${url}`);
    if (useRedis) await waitForStore(url, 'redis', { timeoutMs: 10_000, orThrow: true });

    // Numbers spread over SOAK_NUMBERS subscribers: caches fill, hit and expire as in production.
    let rnd = 0x2545f491;
    const random = () => {
      rnd ^= rnd << 13; rnd ^= rnd >>> 17; rnd ^= rnd << 5;
      return (rnd >>> 0) / 2 ** 32;
    };
    let window: Sample[] = [];
    const totals = emptyRow('soak');
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
        addSample(totals, x);
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
      const { answers } = summarise('window', done);
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

    const exitCode = await svc.stop(15_000);
    const rss = trend(rows, s.warmupS, 'RSS', (r) => r.rssMb, (r) => r.rssMaxMb, s.flatPct, s.rssFloorMb);
    const heap = trend(rows, s.warmupS, 'heap used (window minimum)', (r) => r.heapUsedMb, (r) => r.heapUsedMaxMb, s.flatPct, s.heapFloorMb);
    const clean = totals.malformed === 0 && totals.missing === 0;
    const verdict = rss.flat && heap.flat && clean && exitCode === 0;

    process.stdout.write(`\n${table(rows)}\n\n`);
    for (const t of [heap, rss]) {
      process.stdout.write(`${t.metric}: first third ${t.firstThirdMb} MB, last third ${t.lastThirdMb} MB, growth ${t.growthMb} MB ` +
        `(tolerance ${t.toleranceMb} MB), peak ${t.firstThirdPeakMb} → ${t.lastThirdPeakMb} MB, slope ${t.slopeMbPerHour} MB/h → ${t.flat ? 'flat' : 'NOT FLAT'}\n`);
    }
    process.stdout.write(`requests: ${totals.sent} sent, ${formatAnswers(totals.answers)}; ` +
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
  if (err instanceof SoakUsageError) {
    process.stderr.write(`soak: ${err.message}\n${SOAK_USAGE}\n`);
    process.exit(2);
  }
  log((err as Error).stack ?? String(err));
  process.exit(1);
});
