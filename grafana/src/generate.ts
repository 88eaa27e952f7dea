import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { overviewDashboard } from './overview-dashboard';

/** Every generated dashboard and the file it is committed as, under grafana/provisioning/dashboards/. */
const DASHBOARDS: ReadonlyArray<{ file: string; build: () => object }> = [
  { file: 'verify-customer/overview.json', build: overviewDashboard },
];

/** The exact bytes committed for a dashboard: two-space JSON and a final newline. */
function render(build: () => object): string {
  return `${JSON.stringify(build(), null, 2)}\n`;
}

/**
 * Writes every dashboard's JSON under grafana/provisioning/dashboards/, or with --check
 * compares instead and exits 1 naming each file that differs (CI: the committed JSON must be
 * what the code generates). --root DIR names the repository when run from elsewhere.
 */
function repoRoot(args: string[]): string {
  const i = args.indexOf('--root');
  if (i >= 0 && args[i + 1]) return resolve(args[i + 1]);
  let dir = __dirname;
  while (!existsSync(join(dir, 'grafana', 'provisioning'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('repository root not found: pass --root');
    dir = up;
  }
  return dir;
}

function main(args: string[]): number {
  const check = args.includes('--check');
  const outDir = join(repoRoot(args), 'grafana', 'provisioning', 'dashboards');
  const stale: string[] = [];
  for (const { file, build } of DASHBOARDS) {
    const path = join(outDir, file);
    const json = render(build);
    if (check) {
      const committed = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
      if (committed !== json) stale.push(path);
      continue;
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, json);
    process.stdout.write(`wrote ${path}\n`);
  }
  if (stale.length > 0) {
    process.stderr.write(`dashboards differ from what grafana/src generates (run npm run dashboards):\n  ${stale.join('\n  ')}\n`);
    return 1;
  }
  if (check) process.stdout.write(`${DASHBOARDS.length} dashboard(s) match grafana/src\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
