import { join } from 'node:path';
import { parseArgs } from 'node:util';

/** The soak's settings: SOAK_* environment variables; its command line takes only --help. */
export interface Settings {
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

export const SOAK_USAGE = `usage: node dist/scripts/scripts/soak.js [--help]
Settings come from the environment:
  SOAK_SECONDS 30-86400 (600)   SOAK_RATE req/s 1-20000 (200)   SOAK_SAMPLE_S 1-600 (10)
  SOAK_WARMUP_S (120, or a third of a short run)   SOAK_REDIS auto|on|off (auto)   SOAK_NUMBERS 1-90000000 (200000)
  SOAK_FLAT_PCT (10)   SOAK_RSS_FLOOR_MB (20)   SOAK_HEAP_FLOOR_MB (5)   SOAK_OUT file (dist/soak/soak-<time>.json)   SOAK_LOG_LEVEL`;

/** A command line or setting the soak cannot run with: printed with the usage, exit code 2. */
export class SoakUsageError extends Error {}

function numEnv(env: NodeJS.ProcessEnv, name: string, def: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  const v = Number(raw);
  if (!Number.isFinite(v) || v < min || v > max) throw new SoakUsageError(`${name} must be a number ${min}..${max} (got "${raw.slice(0, 40)}")`);
  return v;
}

/** Strict: any argument but --help (a misspelt `--seconds 60` included) is refused rather than ignored. */
export function readSettings(argv: readonly string[], env: NodeJS.ProcessEnv, root: string): Settings | 'help' {
  let help: boolean | undefined;
  try {
    ({ values: { help } } = parseArgs({ args: [...argv], options: { help: { type: 'boolean' } }, strict: true, allowPositionals: false }));
  } catch (err) {
    if (String((err as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS_')) throw new SoakUsageError((err as Error).message);
    throw err;
  }
  if (help) return 'help';
  const seconds = numEnv(env, 'SOAK_SECONDS', 600, 30, 86_400);
  const redis = env.SOAK_REDIS ?? 'auto';
  if (redis !== 'auto' && redis !== 'on' && redis !== 'off') throw new SoakUsageError(`SOAK_REDIS must be auto, on or off (got "${redis.slice(0, 40)}")`);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return {
    seconds,
    rate: numEnv(env, 'SOAK_RATE', 200, 1, 20_000),
    sampleS: numEnv(env, 'SOAK_SAMPLE_S', 10, 1, 600),
    // Not part of the trend: at 200 req/s V8 keeps growing its heap (and so RSS) for about two
    // minutes before it settles, as JIT, caches and socket pools fill.
    warmupS: numEnv(env, 'SOAK_WARMUP_S', seconds >= 360 ? 120 : Math.floor(seconds / 3), 0, seconds / 2),
    redis,
    flatPct: numEnv(env, 'SOAK_FLAT_PCT', 10, 0, 1000),
    rssFloorMb: numEnv(env, 'SOAK_RSS_FLOOR_MB', 20, 0, 10_000),
    heapFloorMb: numEnv(env, 'SOAK_HEAP_FLOOR_MB', 5, 0, 10_000),
    numbers: numEnv(env, 'SOAK_NUMBERS', 200_000, 1, 90_000_000),
    out: env.SOAK_OUT ?? join(root, 'dist', 'soak', `soak-${stamp}.json`),
  };
}
