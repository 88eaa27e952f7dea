import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StartedProcess, StartOptions, commandSucceeds, startNode } from '../tools/process-kit/child-process';
import { canConnect, freePort, waitForHttp, waitForStore } from '../tools/process-kit/net-wait';
import { PostgresProcess } from '../tools/process-kit/postgres-server';
import { RedisProcess, startRedis } from '../tools/process-kit/redis-server';
import { INSPECT_HOST } from './alloc-profile';
import { AUDIT_OFF_ENV, auditPostgresEnv, startAuditPostgres } from './audit-postgres';
import { Placement } from './processes';
import { ReplicatedRedis, startReplicatedRedis, stopReplicatedRedis, waitEnv } from './replicated-redis';
import { Credentials } from './request-factory';
import { Target } from './scenarios';

/** M1's CAMARA partners (the mix spreads its Bearer calls over them); secrets random per run. */
export const MIX_PARTNERS: Credentials[] = ['mix-a', 'mix-b', 'mix-c', 'mix-d'].map((apiKey) => ({ apiKey, secret: randomBytes(16).toString('hex') }));

/** What every run shares: one redis-server, one simulator (synthetic mode), one bench partner. */
export interface Stack {
  root: string;
  placement: Placement;
  redis: RedisProcess;
  simulator: StartedProcess;
  simulatorUrl: string;
  partnersFile: string;
  /** The built-in OAuth issuer's signing key (P-256 PEM, in the bench's temp dir): production requires a file. */
  signingKeyFile: string;
  /** The sink-credential key (32 random bytes, base64): production with Redis requires a file. */
  sinkKeyFile: string;
  /** KYC Match's allowance key (32 random bytes, base64): production with Redis requires a file. */
  kycMatchKeyFile: string;
  creds: Credentials;
  /** The audit trail's PostgreSQL, when S1+auditPG runs. */
  auditPg?: PostgresProcess;
  /** A master with a replica, when S1+WAIT runs. */
  replicated?: ReplicatedRedis;
}

export interface RunningTarget {
  target: Target;
  url: string;
  pid: number;
  /** What /readyz said about the state store (service only). */
  storeMode?: string;
  /** The inspector's port on 127.0.0.1, when started with `inspect` (--alloc-profile). */
  inspectPort?: number;
  /** The bench partner's credentials with the tokens this service issued, when its scenarios need tokens (else the stack's). */
  creds?: Credentials;
  stop(): Promise<void>;
}

export async function startStack(root: string, placement: Placement, opts: { auditPg?: boolean; replicated?: boolean } = {}): Promise<Stack> {
  if (!commandSucceeds('redis-server', ['--version'])) {
    throw new Error('redis-server is not on PATH: install it (apt-get install redis-server), the bench starts its own');
  }
  const redis = await startRedis();
  const simulator = await startNode([join(root, 'dist/src/simulator/main.js')], {
    env: { PATH: process.env.PATH, SIMULATOR_PORT: '0', SIMULATOR_HOST: '127.0.0.1', SIMULATOR_SYNTHETIC: 'true' },
    ready: /HLR_URL=(\S+)\/hlr SIM_URL=/, what: 'simulator', output: 'stdout', keepChars: 4000,
  });
  // A partner of the bench's own, with a secret nobody else knows and, like a real partner, a
  // rate limit (so S1 pays for it: one script charges it and claims the txn_id), too high to refuse.
  const creds = { apiKey: 'bench-key', secret: randomBytes(16).toString('hex') };
  const dir = mkdtempSync(join(tmpdir(), 'vc-bench-'));
  const partnersFile = join(dir, 'partners.json');
  const signingKeyFile = join(dir, 'oauth-signing-key.pem');
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(signingKeyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  const sinkKeyFile = join(dir, 'sink-credentials.key');
  writeFileSync(sinkKeyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
  const kycMatchKeyFile = join(dir, 'kyc-match.key');
  writeFileSync(kycMatchKeyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
  const rateLimit = { perSecond: 1_000_000, burst: 1_000_000 };
  writeFileSync(partnersFile, JSON.stringify({
    partners: [
      { name: 'bench', apiKey: creds.apiKey, secret: creds.secret, operations: ['kyc', 'sim_swap', 'kyc_match', 'device_swap', 'call_forwarding'], enabled: true, rateLimit },
      // M1's CAMARA partners: each its own token, rate bucket and verified-token cache entry.
      ...MIX_PARTNERS.map((p) => ({ name: p.apiKey, apiKey: p.apiKey, secret: p.secret, operations: ['sim_swap'], enabled: true, rateLimit })),
    ],
  }));
  const auditPg = opts.auditPg ? await startAuditPostgres() : undefined;
  const replicated = opts.replicated ? await startReplicatedRedis() : undefined;
  return {
    root, placement, redis, simulator, simulatorUrl: (simulator.match as RegExpExecArray)[1], partnersFile, signingKeyFile, sinkKeyFile, kycMatchKeyFile, creds,
    ...(auditPg ? { auditPg } : {}),
    ...(replicated ? { replicated } : {}),
  };
}

/** Stops the simulator and redis-server; returns false when redis-server was already gone (killed during the run). */
export async function stopStack(stack: Stack): Promise<boolean> {
  await stack.simulator.stop();
  await stack.auditPg?.destroy();
  if (stack.replicated) await stopReplicatedRedis(stack.replicated);
  const alive = await canConnect(stack.redis.port);
  // A redis-server killed by a signal never emits 'exit' again: do not wait on it forever.
  await Promise.race([stack.redis.stop(), new Promise((r) => setTimeout(r, 3000))]);
  return alive;
}

/** Sets (or clears, with 0) the simulator's injected latency for one upstream. */
export async function setUpstreamLatency(stack: Stack, system: 'hlr' | 'sim', latencyMs: number): Promise<void> {
  const res = await fetch(`${stack.simulatorUrl}/__admin/faults/${system}`, {
    method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latencyMs }),
  });
  if (!res.ok) throw new Error(`simulator refused the fault (${res.status})`);
}

/**
 * The Node/V8 flags the service runs with in production: those of `npm start`
 * (package.json), so the bench measures what is deployed. BENCH_NODE_FLAGS replaces them
 * for an experiment (e.g. BENCH_NODE_FLAGS="--max-semi-space-size=16").
 */
export function serviceNodeFlags(root: string): string[] {
  const override = process.env.BENCH_NODE_FLAGS;
  if (override !== undefined) return override.split(/\s+/).filter(Boolean);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const m = /^node\s+(.*?)\s*dist\/src\/main\.js$/.exec(pkg.scripts?.start ?? '');
  if (!m) throw new Error('package.json scripts.start is not "node [flags] dist/src/main.js": the bench cannot tell how the service runs');
  return (m[1] ?? '').split(/\s+/).filter(Boolean);
}

/** The baselines' programs (bench/baselines/); B4 is B3's with UPSTREAM_URL set. */
const BASELINE_FILES = {
  b0: 'b0-fixed-json.js', b1: 'b1-redis-cache-hit.js', b2: 'b2-express-cache-hit.js', b3: 'b3-express-service-redis.js', b4: 'b3-express-service-redis.js',
} as const;

/**
 * Starts the server under test on its own port: the service (production mode) or a baseline.
 * `env` adds to (or overrides) a service's environment (F1's webhook settings); `inspect` opens
 * a service's inspector on a free port of 127.0.0.1 (never another address: it runs any code it is sent).
 */
export async function startTarget(stack: Stack, target: Target, opts: { cpuProfDir?: string; env?: Record<string, string>; inspect?: boolean } = {}): Promise<RunningTarget> {
  const port = await freePort();
  const inspectPort = opts.inspect ? await freePort() : undefined;
  const url = `http://127.0.0.1:${port}`;
  const base = { PATH: process.env.PATH, PORT: String(port), NODE_ENV: 'production' };
  // The server under test runs on its own CPU when pinned; its stdout is kept short (a tail for errors).
  const server = (args: string[], env: NodeJS.ProcessEnv, ready?: RegExp) => {
    const opts: StartOptions = { env, output: 'stdout', keepChars: 4000, what: target, ...(ready ? { ready } : {}) };
    if (stack.placement.pinned) opts.cpu = stack.placement.serverCpu;
    return startNode(args, opts);
  };
  let proc: StartedProcess;
  switch (target) {
    case 'b0':
    case 'b1':
    case 'b2':
    case 'b3':
    case 'b4': {
      const env = { ...base, REDIS_URL: stack.redis.url, ...(target === 'b4' ? { UPSTREAM_URL: `${stack.simulatorUrl}/hlr` } : {}) };
      proc = await server([join(stack.root, 'dist/bench/bench/baselines', BASELINE_FILES[target])], env, /^listening/m);
      break;
    }
    case 'service':
    case 'alt':
    case 'auditpg':
    case 'fanout':
    case 'waitrepl': {
      const prof = opts.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProfDir}`] : [];
      if (inspectPort !== undefined) prof.push(`--inspect=${INSPECT_HOST}:${inspectPort}`);
      // BENCH_SERVICE_ROOT: another checkout's build, for a before/after run against the same baselines.
      // 'alt' (scenario S1alt) is a second service beside the first, for paired A/B rounds:
      // BENCH_ALT_ROOT (another build) and/or BENCH_ALT_NODE_FLAGS (other V8 settings).
      const alt = target === 'alt';
      const serviceRoot = (alt ? process.env.BENCH_ALT_ROOT : undefined) ?? process.env.BENCH_SERVICE_ROOT ?? stack.root;
      const flags = alt && process.env.BENCH_ALT_NODE_FLAGS !== undefined
        ? process.env.BENCH_ALT_NODE_FLAGS.split(/\s+/).filter(Boolean) : serviceNodeFlags(stack.root);
      proc = await server([...flags, ...prof, join(serviceRoot, 'dist/src/main.js')], {
        ...base,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        PARTNERS_FILE: stack.partnersFile,
        HLR_URL: `${stack.simulatorUrl}/hlr`,
        SIM_URL: `${stack.simulatorUrl}/sim`,
        CRM_URL: `${stack.simulatorUrl}/crm`,
        // K1 asks four numbers over and over: the guessing limit (default 10 a day) would refuse it at once.
        KYC_MATCH_MAX_PER_NUMBER_PER_DAY: '1000000',
        REDIS_URL: stack.redis.url,
        // The failed-signature throttle (default 20 per key, 100 per address in 60 s) would turn
        // S5 into a run of 429s from the throttle and then refuse S6 from the same loopback
        // address: its highest limits over a 1 s window keep S5 on the signature-checking path.
        AUTH_FAIL_LIMIT: '10000',
        AUTH_FAIL_ADDRESS_LIMIT: '10000',
        AUTH_FAIL_WINDOW_S: '1',
        // The built-in issuer (C1's tokens): a key file and PUBLIC_URL, as production requires,
        // and tokens that outlive the run (fetched once, before measuring).
        OAUTH_SIGNING_KEY_FILE: stack.signingKeyFile,
        SINK_CREDENTIALS_KEY_FILE: stack.sinkKeyFile,
        KYC_MATCH_KEY_FILE: stack.kycMatchKeyFile,
        PUBLIC_URL: url,
        OAUTH_TOKEN_TTL_S: '86400',
        ...(target === 'auditpg' ? auditPostgresEnv(auditPgOf(stack)) : AUDIT_OFF_ENV),
        ...(target === 'waitrepl' ? waitEnv(replicatedOf(stack)) : {}),
        ...opts.env,
      });
      break;
    }
    default: {
      const never: never = target;
      throw new Error(`unknown target ${String(never)}`);
    }
  }
  const running: RunningTarget = { target, url, pid: proc.pid, stop: async () => { await proc.stop(); } };
  if (target === 'service' || target === 'alt' || target === 'auditpg' || target === 'fanout' || target === 'waitrepl') {
    if (inspectPort !== undefined) running.inspectPort = inspectPort;
    await waitForHttp(`${url}/readyz`);
    running.storeMode = await waitForStore(url, 'redis', { timeoutMs: 15_000 });
  }
  return running;
}

function replicatedOf(stack: Stack): ReplicatedRedis {
  if (!stack.replicated) throw new Error('the waitrepl target needs the stack started with { replicated: true }');
  return stack.replicated;
}

function auditPgOf(stack: Stack): PostgresProcess {
  if (!stack.auditPg) throw new Error('the auditpg target needs the stack started with { auditPg: true }');
  return stack.auditPg;
}

/**
 * A client-credentials access token of the built-in issuer for the bench partner (scope
 * sim-swap:check unless told), from the service under test itself; fetched once per run, before measuring.
 */
export async function fetchBearer(stack: Stack, url: string, scope = 'sim-swap:check', creds: Credentials = stack.creds): Promise<string> {
  const basic = Buffer.from(`${encodeURIComponent(creds.apiKey)}:${encodeURIComponent(creds.secret)}`).toString('base64');
  const res = await fetch(`${url}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope }).toString(),
  });
  const json = await res.json() as { access_token?: unknown; expires_in?: unknown };
  if (res.status !== 200 || typeof json.access_token !== 'string') throw new Error(`token request refused: status ${res.status}`);
  return json.access_token;
}

/** Counter values from the service's /metrics, by full series name (name{labels}). */
export async function scrapeCounters(url: string, names = ['verify_cache_lookups_total', 'verify_upstream_calls_total']): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!names.some((n) => line.startsWith(n))) continue;
    const i = line.lastIndexOf(' ');
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}

