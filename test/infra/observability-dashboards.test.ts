import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PrometheusMetrics } from '../../src/observability/prometheus-metrics';
import { DECLARED_APIS } from '../../src/partners/camara-apis';
import { isLegacyOperation } from '../../src/partners/operation';
import { stringMatching } from '../support/matchers';
import { PrometheusWebhookMetrics } from '../../src/observability/webhook-metrics';

const ROOT = join(__dirname, '..', '..');
const DASHBOARDS = join(ROOT, 'grafana', 'provisioning', 'dashboards', 'verify-customer');
const RULES = readFileSync(join(ROOT, 'grafana', 'prometheus', 'rules.yml'), 'utf8');

interface Target { refId: string; expr: string; datasource: { uid: string } }
interface Panel {
  id: number; type: string; title: string; description?: string; datasource?: { type: string; uid: string };
  fieldConfig?: { defaults?: { unit?: string } }; targets?: Target[]; panels?: Panel[];
}
interface Dashboard { uid: string; panels: Panel[]; templating: { list: Array<{ name: string; type: string; query: unknown }> } }

const files = readdirSync(DASHBOARDS).filter((f) => f.endsWith('.json'));
const dashboards = files.map((f) => ({ file: f, d: JSON.parse(readFileSync(join(DASHBOARDS, f), 'utf8')) as Dashboard }));
const panelsOf = (d: Dashboard) => d.panels.flatMap((p) => [p, ...(p.panels ?? [])]).filter((p) => p.type !== 'row');

/** Every series name the service exports (histograms with their _bucket/_sum/_count), plus recordings and up. */
async function knownSeries(): Promise<Set<string>> {
  const names = new Set<string>(['up']);
  const metrics = new PrometheusMetrics();
  new PrometheusWebhookMetrics(metrics.registry);
  for (const [, name, kind] of (await metrics.registry.metrics()).matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    if (kind === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(`${name}${s}`);
  }
  for (const [, record] of RULES.matchAll(/- record: (\S+)/g)) names.add(record);
  return names;
}

const seriesIn = (expr: string) => [...expr.matchAll(/\b((?:verify|process|nodejs)_\w+|job\w*:\w+:\w+|up)(?=\{|\b)/g)].map((m) => m[1]);

describe('Grafana dashboards', () => {
  it('when they are regenerated from grafana/src, then the result is exactly the committed JSON', () => {
    // Inside the repository (dist/ is ignored) so the compiled generator resolves the SDK.
    mkdirSync(join(ROOT, 'dist'), { recursive: true });
    const out = mkdtempSync(join(ROOT, 'dist', 'grafana-check-'));
    try {
      execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'grafana', 'tsconfig.json'), '--outDir', out], { stdio: 'pipe' });
      const res = execFileSync(process.execPath, [join(out, 'src', 'generate.js'), '--check', '--root', ROOT], { encoding: 'utf8' });
      expect(res).toMatch(/match grafana\/src/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);

  it.each(dashboards)('when $file is read, then every panel has a description, a unit and the datasource variable', ({ d }) => {
    expect(d.templating.list.find((v) => v.name === 'datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' });
    const panels = panelsOf(d);
    expect(panels.length).toBeGreaterThan(20);
    for (const p of panels) {
      expect({ panel: p.title, description: (p.description ?? '').length >= 40 }).toEqual({ panel: p.title, description: true });
      expect({ panel: p.title, unit: p.fieldConfig?.defaults?.unit }).toEqual({ panel: p.title, unit: stringMatching(/.+/) });
      expect(p.datasource).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(p.targets?.length).toBeGreaterThan(0);
      for (const t of p.targets ?? []) expect(t.datasource.uid).toBe('${datasource}');
      expect(new Set(p.targets?.map((t) => t.refId)).size).toBe(p.targets?.length);
    }
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
  });

  it.each(dashboards)('when $file queries a range, then it uses $__rate_interval and filters by job and instance', ({ d }) => {
    for (const p of panelsOf(d)) {
      for (const t of p.targets ?? []) {
        for (const [, range] of t.expr.matchAll(/\[([^\]]+)\]/g)) expect({ panel: p.title, range }).toEqual({ panel: p.title, range: '$__rate_interval' });
        // Raw series belong to the selected job and instances; recordings are per job already.
        for (const m of t.expr.matchAll(/(?<![:\w])(?:verify|process|nodejs)_\w+(.{0,40})/g)) {
          expect({ panel: p.title, selector: (m[1] ?? '').startsWith('{job=~"$job", instance=~"$instance"') }).toEqual({ panel: p.title, selector: true });
        }
        for (const [, v] of t.expr.matchAll(/\$(\w+)/g)) expect(['__rate_interval', 'job', 'instance']).toContain(v);
      }
    }
  });

  it('when their queries are read, then they name only series the service exports or the rules record, and show every verify_* metric', async () => {
    const known = await knownSeries();
    const used = new Set(dashboards.flatMap(({ d }) => panelsOf(d).flatMap((p) => (p.targets ?? []).flatMap((t) => seriesIn(t.expr)))));
    for (const name of used) expect({ name, known: known.has(name) }).toEqual({ name, known: true });
    const families = [...known].filter((n) => n.startsWith('verify_') && !/_(sum|count)$/.test(n) && !known.has(`${n}_bucket`));
    for (const f of families) expect({ metric: f, onDashboard: used.has(f) }).toEqual({ metric: f, onDashboard: true });
  });

  it('when a CAMARA-only API is declared, then a panel shows its own answers (its registry operation named in a query)', () => {
    // What a new declaration cannot give by itself: an SRE's view of it. Matched as a label value
    // alone or in an alternation (`operation=~"device_swap|call_forwarding"`). SIM Swap and KYC
    // Tenure count under the legacy operations, whose panels are the service's own.
    const exprs = dashboards.flatMap(({ d }) => panelsOf(d).flatMap((p) => (p.targets ?? []).map((t) => t.expr)));
    for (const op of new Set(DECLARED_APIS.map((a) => a.registryOperation).filter((op) => !isLegacyOperation(op)))) {
      const shown = exprs.some((e) => new RegExp(`operation=~?"(?:[^"]*\\|)?${op}(?:\\|[^"]*)?"`).test(e));
      expect({ operation: op, shown }).toEqual({ operation: op, shown: true });
    }
  });

  it('when rules.yml is read, then it names only series that exist', async () => {
    const known = await knownSeries();
    const named = [...RULES.matchAll(/expr: ([^\n]+(?:\n {10}[^\n]+)*)/g)].flatMap(([, expr]) => seriesIn(expr));
    expect(new Set(named).size).toBeGreaterThan(15);
    for (const name of named) expect({ name, known: known.has(name) }).toEqual({ name, known: true });
  });

  it('when the provisioning provider looks, then it finds the dashboards where they are committed', () => {
    const provider = readFileSync(join(ROOT, 'grafana', 'provisioning', 'dashboards', 'verify-customer.yml'), 'utf8');
    expect(provider).toContain('path: /etc/grafana/provisioning/dashboards/verify-customer');
    expect(files).toContain('overview.json');
  });
});
