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
}

export const USAGE = `usage: npm run bench -- [--no-soak] [--profile] [--only=B1,S1,...] [--duration=12] [--rounds=3] [--warmup=3]
  --no-soak    skip the 1,000,000-request S1 run that checks RSS growth (about 3 of the 7 minutes)
  --profile    run the service with --cpu-prof; print the hottest functions afterwards
  --only       scenario ids: S1 S5 S6 S1@50% S2 S3 S4 B0 B1 B2 B0@50% B1@50% (@50% needs S1); no soak unless --soak
  --soak       with --only: run the soak too
  --no-pin     do not pin the server to CPU 0 and the rest to CPU 1
  --duration   measured seconds per scenario (default 12)
  --rounds     rounds the interleaved scenarios B0 B1 B2 S1 S5 S6 are split into (default 3)
  --warmup     warm-up seconds per scenario, not measured (default 3)`;

export function parseBenchArgs(argv: string[]): BenchArgs {
  const args: BenchArgs = { soak: process.env.BENCH_MILLION !== '0', profile: false, durationS: 12, warmupS: 3, rounds: 3, pin: true };
  for (const a of argv) {
    const [flag, value] = a.split('=', 2) as [string, string | undefined];
    switch (flag) {
      case '--soak': args.soak = true; break;
      case '--no-soak': args.soak = false; break;
      case '--no-pin': args.pin = false; break;
      case '--profile': args.profile = true; break;
      case '--only': args.only = new Set((value ?? '').split(',').filter(Boolean)); args.soak = argv.includes('--soak'); break;
      case '--duration': args.durationS = positive(flag, value); break;
      case '--warmup': args.warmupS = positive(flag, value, true); break;
      case '--rounds': args.rounds = Math.max(1, Math.round(positive(flag, value))); break;
      case '--help': process.stdout.write(`${USAGE}\n`); process.exit(0); break;
      default: throw new Error(`unknown option ${a}\n${USAGE}`);
    }
  }
  return args;
}

function positive(flag: string, value: string | undefined, zeroOk = false): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || (!zeroOk && n === 0)) throw new Error(`${flag} needs a positive number`);
  return n;
}
