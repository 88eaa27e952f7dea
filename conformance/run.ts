import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfiguration, runCucumber } from '@cucumber/cucumber/api';
import { APIS } from './support/camara-documents';
import { KitParameters } from './support/world';
import { Listed, RunCollector, isEnabled, summary } from './results';

/*
 * The conformance kit's command line: runs the official CAMARA .feature files, as they are,
 * against a deployment, and prints the summary table. Exit 0 when every scenario passed or is
 * listed in known-failures.json; 1 otherwise (a failure not listed, or a listed one passing);
 * 2 on a usage error. docs/conformance.md says how to run it.
 */

const REPO = resolve(__dirname, '..', '..', '..');
const USAGE = `usage: npm run conformance -- --base-url URL --client-id ID --client-secret S [--token-url URL]
  [--features DIR] [--issuer-key FILE --issuer ISS --audience AUD | --three-legged-command CMD]
  [--sink-url URL] [--rate-limited-client ID:SECRET] [--data FILE] [--setting NAME=VALUE]... [--only-enabled] [--tags EXPR] [--known FILE] [--json FILE]`;

function options(argv: string[]) {
  const { values } = parseArgs({
    args: argv, strict: true, allowPositionals: false, options: {
      'base-url': { type: 'string' }, 'token-url': { type: 'string' }, 'client-id': { type: 'string' }, 'client-secret': { type: 'string' },
      features: { type: 'string' }, 'issuer-key': { type: 'string' }, issuer: { type: 'string' }, audience: { type: 'string' },
      'three-legged-command': { type: 'string' }, 'rate-limited-client': { type: 'string' }, data: { type: 'string' }, 'sink-url': { type: 'string' }, setting: { type: 'string', multiple: true },
      'only-enabled': { type: 'boolean' }, tags: { type: 'string' }, known: { type: 'string' }, json: { type: 'string' }, help: { type: 'boolean' },
    },
  });
  if (values.help) throw new Error(USAGE);
  const baseUrl = values['base-url']?.replace(/\/+$/, '');
  if (!baseUrl || !values['client-id'] || !values['client-secret']) throw new Error(`--base-url, --client-id and --client-secret are required\n${USAGE}`);
  const settings: Record<string, string> = {};
  for (const s of values.setting ?? []) {
    const eq = s.indexOf('=');
    if (eq < 1) throw new Error(`--setting takes NAME=VALUE, got "${s}"`);
    settings[s.slice(0, eq)] = s.slice(eq + 1);
  }
  const limited = values['rate-limited-client'];
  if (limited !== undefined) {
    if (!/^[^:]+:.+$/.test(limited)) throw new Error('--rate-limited-client takes ID:SECRET');
    // The scenarios that exhaust a rate limit are then expected to pass (known-failures.json).
    settings.RATE_LIMITED_CLIENT = limited.slice(0, limited.indexOf(':'));
  }
  const params: KitParameters = {
    baseUrl, tokenUrl: values['token-url'] ?? `${baseUrl}/oauth2/token`, clientId: values['client-id'], clientSecret: values['client-secret'],
    featuresDir: resolve(values.features ?? process.env.CAMARA_SPECS_DIR ?? join(REPO, '..', 'shared', 'camara')),
    sinkUrl: values['sink-url'] ?? 'https://sink.example.com/camara-events', settings,
    ...(values['issuer-key'] ? { issuerKeyFile: values['issuer-key'] } : {}),
    ...(values.data ? { dataFile: resolve(values.data) } : {}),
    ...(values.issuer ? { issuer: values.issuer } : {}), ...(values.audience ? { audience: values.audience } : {}),
    ...(values['three-legged-command'] ? { threeLeggedCommand: values['three-legged-command'] } : {}),
    ...(limited ? { rateLimitedClient: { id: limited.slice(0, limited.indexOf(':')), secret: limited.slice(limited.indexOf(':') + 1) } } : {}),
  };
  return { params, onlyEnabled: values['only-enabled'] ?? false, tags: values.tags ?? '', known: values.known ?? join(REPO, 'conformance', 'known-failures.json'), json: values.json };
}

async function main(): Promise<number> {
  let o: ReturnType<typeof options>;
  try {
    o = options(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  const table = (JSON.parse(readFileSync(o.known, 'utf8')) as { scenarios: Listed[] }).scenarios;
  const enabled = table.filter((e) => isEnabled(e, o.params.settings));
  if (o.onlyEnabled && enabled.length === 0) {
    process.stderr.write('--only-enabled: no listed scenario is enabled by the --setting values given\n');
    return 2;
  }
  // Tags are unique per feature file; with --only-enabled, only those features and tags run.
  const paths = APIS.flatMap((a) => a.features).filter((f) => !o.onlyEnabled || enabled.some((e) => e.feature === f)).map((f) => join(o.params.featuresDir, f));
  const only = o.onlyEnabled ? [...new Set(enabled.map((e) => `@${e.tag}`))].join(' or ') : '';
  const tagExpression = [only, o.tags].filter(Boolean).map((t) => `(${t})`).join(' and ');
  const dist = __dirname;
  const { runConfiguration } = await loadConfiguration({
    file: false,
    provided: {
      paths, tags: tagExpression, format: [], worldParameters: JSON.parse(JSON.stringify(o.params)) as Record<string, never>,
      require: [join(dist, 'support', 'world.js'), join(dist, 'steps', '*.js'), join(dist, 'binding', '*.js')],
    },
  });
  const collector = new RunCollector();
  await runCucumber(runConfiguration, { cwd: REPO, stdout: process.stderr }, collector.onMessage);
  let outcomes = collector.outcomes(table, o.params.settings);
  if (o.onlyEnabled) outcomes = outcomes.filter((r) => enabled.some((e) => e.feature === r.feature && e.tag === r.tag && (e.example === undefined || e.example === r.example)));
  process.stdout.write(`${summary(outcomes)}\n`);
  if (o.json) writeFileSync(o.json, JSON.stringify(outcomes, null, 2));
  return outcomes.some((r) => r.verdict === 'failed' || r.verdict === 'listed-but-passed') || outcomes.length === 0 ? 1 : 0;
}

main().then((code) => { process.exitCode = code; }, (err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exitCode = 1;
});
