import { parseArgs } from 'node:util';
import { ALT_TWIN, DEFAULT_AB_CONTROL, FANOUT_ID, SCENARIOS, altOf } from './scenarios';

/** Command-line options of `npm run bench -- ...`. */
export interface BenchArgs {
  /** Run the 1M-request S1 soak (RSS growth); on by default, off with --no-soak. */
  soak: boolean;
  /** When the soak does not run: why (the target table says so). */
  soakOff?: string;
  /** Start the service with --cpu-prof and print where its time went. */
  profile: boolean;
  /** Sample the service's allocations (collected objects included) over every measured run and print where they happen. */
  allocProfile: boolean;
  /** Run only these scenario ids (e.g. S1,S5); B1 is needed for the S1/B1 ratio. */
  only?: Set<string>;
  durationS: number;
  warmupS: number;
  /** Rounds the interleaved scenarios (B0 B1 B2 S1 S5 S6) are split into; each gets durationS in all. */
  rounds: number;
  /** Pin the server under test to CPU 0 and everything else to CPU 1 (default); --no-pin leaves placement to the OS. */
  pin: boolean;
  /** A/B runs (an 'alt' scenario in --only): the control scenario's twin id (S5 unless --ab-control), run on both slots. */
  abControl?: string;
  /** F1, the SIM swap subscription fan-out: its size and settings; undefined when this run leaves it out. */
  fanout?: FanoutSettings;
  /** --help: print the usage and stop. */
  help: boolean;
}

/** F1's size and the delivery settings of its service (docs/performance.md, "Fan-out"). */
export interface FanoutSettings {
  subscriptions: number;
  /** Phone numbers the subscriptions are spread over; the burst swaps each once. */
  numbers: number;
  /** Local sinks (one port, so one origin, each); a number's subscriptions go to every sink in turn. */
  sinks: number;
  /** The service's WEBHOOK_CONCURRENCY: deliveries in flight, all sinks together. */
  concurrency: number;
  /** The service's WEBHOOK_SINK_CONCURRENCY: deliveries in flight per sink origin. */
  sinkConcurrency: number;
}

/** F1 unless told otherwise: 10 subscriptions per number, to 10 sinks; the service's delivery defaults. */
export const FANOUT_DEFAULTS: FanoutSettings = { subscriptions: 10_000, numbers: 1_000, sinks: 10, concurrency: 64, sinkConcurrency: 4 };

export const USAGE = `usage: npm run bench -- [--quick] [--no-soak] [--profile] [--alloc-profile] [--only=B1,S1,...] [--duration=12] [--rounds=3] [--warmup=3]
  --quick      M1 B1 B3 S1 S1+auditPG C1 S5 S6 in interleaved rounds, M1 at half rate, no soak, then the target table (about 4 minutes)
  --no-soak    skip the 1,000,000-request S1 run that checks RSS growth (about 3 of the 7 minutes)
  --profile    run the service with --cpu-prof; print the hottest functions afterwards
  --alloc-profile  sample the service's allocations (V8 sampling heap profiler over its inspector on 127.0.0.1,
               objects already collected included) in every measured run; print bytes per request and the top sites
  --only       scenario ids: M1 S1 S1+auditPG S1+WAIT C1 K1 D1 G1 S5 S6 S1@50% S2 S3 S4 B0 B1 B2 B3 B4 B0@50% B1@50% M1@50% B1@M1 F1
               S1alt S2alt S5alt C1alt K1alt D1alt G1alt S6alt (A/B: the scenario on a second service,
               BENCH_ALT_ROOT / BENCH_ALT_NODE_FLAGS)
               (@50% needs S1, M1@50% and B1@M1 need M1); no soak unless --soak
  --ab-control with an A/B scenario (S1alt ...) in --only: the control run on both slots, a scenario with an
               A/B twin (default S5); each A/B ratio is printed divided by the control's, round by round
  --soak       with --only or --quick: run the soak too
  --no-pin     do not pin the server to CPU 0 and the rest to CPU 1
  --duration   measured seconds per scenario (default 12; --quick 8)
  --rounds     rounds the interleaved scenarios are split into (default 3; --quick 4)
  --warmup     warm-up seconds per scenario, not measured (default 3; --quick 2)
  F1, the SIM swap subscription fan-out (in the full run and with --only=F1, not in --quick):
  --fanout-subscriptions  subscriptions created (default 10000)
  --fanout-numbers        phone numbers they are spread over, each swapped once in the burst (default 1000)
  --fanout-sinks          local sinks, one port each (default 10)
  --fanout-concurrency    the service's WEBHOOK_CONCURRENCY (default 64)
  --fanout-sink-concurrency  the service's WEBHOOK_SINK_CONCURRENCY (default 4)`;

/** A bad command line: the runner prints it with the usage and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** What --quick runs: the ratios most often re-checked after a change, in about a minute and a half. */
export const QUICK_SCENARIOS = ['M1', 'B1', 'B3', 'S1', 'S1+auditPG', 'C1', 'S5', 'S6', 'M1@50%', 'B1@M1'];

export function parseBenchArgs(argv: string[]): BenchArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      allowNegative: true,
      options: {
        quick: { type: 'boolean', default: false },
        soak: { type: 'boolean' },
        pin: { type: 'boolean', default: true },
        profile: { type: 'boolean', default: false },
        'alloc-profile': { type: 'boolean', default: false },
        only: { type: 'string' },
        'ab-control': { type: 'string' },
        duration: { type: 'string' },
        rounds: { type: 'string' },
        warmup: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        'fanout-subscriptions': { type: 'string' },
        'fanout-numbers': { type: 'string' },
        'fanout-sinks': { type: 'string' },
        'fanout-concurrency': { type: 'string' },
        'fanout-sink-concurrency': { type: 'string' },
      },
    }).values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { quick } = parsed;
  let only: Set<string> | undefined;
  if (parsed.only !== undefined) {
    only = new Set(parsed.only.split(',').filter(Boolean));
    if (only.size === 0) throw new UsageError('--only needs at least one scenario id');
    const unknown = [...only].filter((id) => id !== FANOUT_ID && !SCENARIOS.some((sc) => sc.id === id));
    if (unknown.length > 0) throw new UsageError(`--only: unknown scenario ${unknown.join(', ')}`);
  } else if (quick) {
    only = new Set(QUICK_SCENARIOS);
  }
  const abControl = abControlOf(only, parsed['ab-control']);
  if (abControl !== undefined && only) {
    only.add(abControl);
    only.add(altOf(abControl) as string);
  }
  // The soak runs by default on a full run; --only and --quick leave it out unless --soak.
  const soakDefault = only === undefined && process.env.BENCH_MILLION !== '0';
  const fanout = fanoutSettings(parsed, only === undefined || only.has(FANOUT_ID));
  const soak = parsed.soak ?? soakDefault;
  return {
    soak,
    ...(soak ? {} : { soakOff: soakOffReason(parsed.soak, quick, parsed.only !== undefined) }),
    profile: parsed.profile,
    allocProfile: parsed['alloc-profile'],
    only,
    durationS: positive('--duration', parsed.duration, quick ? 8 : 12),
    warmupS: positive('--warmup', parsed.warmup, quick ? 2 : 3, true),
    rounds: Math.max(1, Math.round(positive('--rounds', parsed.rounds, quick ? 4 : 3))),
    pin: parsed.pin,
    ...(fanout ? { fanout } : {}),
    ...(abControl ? { abControl } : {}),
    help: parsed.help,
  };
}

/** Every run with an A/B scenario gets a control pair (docs/performance.md, "A/B runs"); --ab-control without one is a mistake. */
function abControlOf(only: Set<string> | undefined, given: string | undefined): string | undefined {
  const ab = [...(only ?? [])].some((id) => ALT_TWIN[id] !== undefined);
  if (given !== undefined && !Object.values(ALT_TWIN).includes(given)) {
    throw new UsageError(`--ab-control needs one of ${Object.values(ALT_TWIN).join(', ')}, got "${given}"`);
  }
  if (!ab) {
    if (given !== undefined) throw new UsageError(`--ab-control needs an A/B scenario in --only (${Object.keys(ALT_TWIN).join(', ')})`);
    return undefined;
  }
  return given ?? DEFAULT_AB_CONTROL;
}

/** Why the soak is left out, in the words of the command line that left it out. */
function soakOffReason(soakFlag: boolean | undefined, quick: boolean, only: boolean): string {
  if (soakFlag === false) return '--no-soak';
  if (only) return '--only leaves it out; add --soak';
  if (quick) return '--quick leaves it out; add --soak';
  return 'BENCH_MILLION=0';
}

type FanoutFlag = 'fanout-subscriptions' | 'fanout-numbers' | 'fanout-sinks' | 'fanout-concurrency' | 'fanout-sink-concurrency';

/** F1's settings when it runs; its flags without F1 in the run are a mistake, not silently ignored. */
function fanoutSettings(parsed: Partial<Record<FanoutFlag, string>>, runs: boolean): FanoutSettings | undefined {
  const given = (Object.keys(parsed) as FanoutFlag[]).filter((k) => k.startsWith('fanout-') && parsed[k] !== undefined);
  if (!runs) {
    if (given.length > 0) throw new UsageError(`--${given[0]} needs F1 in the run (the full run or --only=...,F1)`);
    return undefined;
  }
  const d = FANOUT_DEFAULTS;
  const out: FanoutSettings = {
    subscriptions: count('--fanout-subscriptions', parsed['fanout-subscriptions'], d.subscriptions, 1_000_000),
    numbers: count('--fanout-numbers', parsed['fanout-numbers'], d.numbers, 1_000_000),
    sinks: count('--fanout-sinks', parsed['fanout-sinks'], d.sinks, 100),
    // The service's own bounds for WEBHOOK_CONCURRENCY and WEBHOOK_SINK_CONCURRENCY.
    concurrency: count('--fanout-concurrency', parsed['fanout-concurrency'], d.concurrency, 1000),
    sinkConcurrency: count('--fanout-sink-concurrency', parsed['fanout-sink-concurrency'], d.sinkConcurrency, 1000),
  };
  if (out.numbers > out.subscriptions) throw new UsageError(`--fanout-numbers (${out.numbers}) must not exceed --fanout-subscriptions (${out.subscriptions})`);
  return out;
}

function count(flag: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > max) throw new UsageError(`${flag} needs a whole number from 1 to ${max}, got "${value}"`);
  return n;
}

function positive(flag: string, value: string | undefined, fallback: number, zeroOk = false): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || (!zeroOk && n === 0)) throw new UsageError(`${flag} needs a positive number, got "${value}"`);
  return n;
}

/** The runner's front door: the parsed options, or the usage on stderr and exit code 2 (0 for --help). */
export function argsOrExit(argv: string[], io: { err(text: string): void; out(text: string): void; exit(code: number): never }): BenchArgs {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`bench: ${err.message}\n${USAGE}\n`);
    return io.exit(2);
  }
  if (args.help) {
    io.out(`${USAGE}\n`);
    return io.exit(0);
  }
  return args;
}
