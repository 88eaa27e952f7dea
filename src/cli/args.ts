/** `--name value` and `--flag` options after positional words; enough for a small CLI. */
export interface Args {
  positional: string[];
  options: Map<string, string | true>;
}

export function parseArgs(argv: readonly string[]): Args {
  const positional: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const [name, inline] = a.slice(2).split(/=(.*)/s, 2);
    if (inline !== undefined) options.set(name, inline);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) options.set(name, argv[++i]);
    else options.set(name, true);
  }
  return { positional, options };
}

export function stringOption(args: Args, name: string, fallback?: string): string | undefined {
  const v = args.options.get(name);
  return typeof v === 'string' ? v : fallback;
}

export class UsageError extends Error {}
