import { parseArgs } from 'node:util';
import { SCENARIOS } from './scenarios';

/** Command-line options of `npm run bench -- ...`. */
export interface BenchArgs {
  /** Run the 1M-request S1 soak (RSS growth); on by default, off with --no-soak. */
  soak: boolean;
  /** Start the service with --cpu-prof and print where its time went. */
  profile: boolean;
  /** Run only these scenario ids (e.g. S1,S5); B1 is needed for the S1/B1 ratio. */
  only?: Set<string>;
  durationS: number;
  warmupS: number;
  /** Rounds the interleaved scenarios (B0 B1 B2 S1 S5 S6) are split into; each gets durationS in all. */
  rounds: number;
  /** Pin the server under test to CPU 0 and everything else to CPU 1 (default); --no-pin leaves placement to the OS. */
  pin: boolean;
  /** --help: print the usage and stop. */
  help: boolean;
}

export const USAGE = `usage: npm run bench -- [--quick] [--no-soak] [--profile] [--only=B1,S1,...] [--duration=12] [--rounds=3] [--warmup=3]
  --quick      B1 S1 S1+auditPG C1 S5 S6 in interleaved rounds, no soak, then the target table (about 3 minutes)
  --no-soak    skip the 1,000,000-request S1 run that checks RSS growth (about 3 of the 7 minutes)
  --profile    run the service with --cpu-prof; print the hottest functions afterwards
  --only       scenario ids: S1 S1+auditPG C1 S5 S6 S1@50% S2 S3 S4 B0 B1 B2 B0@50% B1@50% (@50% needs S1); no soak unless --soak
  --soak       with --only or --quick: run the soak too
  --no-pin     do not pin the server to CPU 0 and the rest to CPU 1
  --duration   measured seconds per scenario (default 12; --quick 8)
  --rounds     rounds the interleaved scenarios are split into (default 3; --quick 4)
  --warmup     warm-up seconds per scenario, not measured (default 3; --quick 2)`;

/** A bad command line: the runner prints it with the usage and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** What --quick runs: the ratios the issue re-checks most often, in about a minute and a half. */
export const QUICK_SCENARIOS = ['B1', 'S1', 'S1+auditPG', 'C1', 'S5', 'S6'];

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
        only: { type: 'string' },
        duration: { type: 'string' },
        rounds: { type: 'string' },
        warmup: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
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
    const unknown = [...only].filter((id) => !SCENARIOS.some((sc) => sc.id === id));
    if (unknown.length > 0) throw new UsageError(`--only: unknown scenario ${unknown.join(', ')}`);
  } else if (quick) {
    only = new Set(QUICK_SCENARIOS);
  }
  // The soak runs by default on a full run; --only and --quick leave it out unless --soak.
  const soakDefault = only === undefined && process.env.BENCH_MILLION !== '0';
  return {
    soak: parsed.soak ?? soakDefault,
    profile: parsed.profile,
    only,
    durationS: positive('--duration', parsed.duration, quick ? 8 : 12),
    warmupS: positive('--warmup', parsed.warmup, quick ? 2 : 3, true),
    rounds: Math.max(1, Math.round(positive('--rounds', parsed.rounds, quick ? 4 : 3))),
    pin: parsed.pin,
    help: parsed.help,
  };
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
