import { ParseArgsOptionsConfig, parseArgs } from 'node:util';

/** A command line the CLI cannot act on: main prints the message and the usage, and exits 2. */
export class UsageError extends Error {}

/**
 * Strict parsing with node:util: an unknown option, a missing value, a value given to a flag or
 * an option whose value looks like another option (`--key --secret s`) is a usage error, never
 * silently ignored. Positionals are returned as given; each command checks their count.
 */
export function parseCommandArgs<const O extends ParseArgsOptionsConfig>(argv: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (err) {
    // node's messages name the option, never its value (which may be a secret).
    if (String((err as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS_')) throw new UsageError((err as Error).message);
    throw err;
  }
}

/** Exactly the positionals `names` describes, or a usage error (which never echoes them: one may be an msisdn). */
export function positionals(given: readonly string[], names: readonly string[]): string[] {
  if (given.length < names.length) throw new UsageError(`missing ${names.slice(given.length).join(' ')}`);
  if (given.length > names.length) throw new UsageError(`too many arguments: expected ${names.join(' ') || 'none'}`);
  return [...given];
}

/** A whole number in [min, max] written as digits only ("24", not "24h", "2.5" or "1e2"). */
export function integerOption(name: string, raw: string, min: number, max: number): number {
  const n = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max)) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  return n;
}
