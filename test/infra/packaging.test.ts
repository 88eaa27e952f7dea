import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { configSchema, loadConfig } from '../../src/config/config';

/**
 * No container engine runs on the project's machines (docs/fleet.md), so everything about the
 * Dockerfile, compose.yaml and the Kubernetes manifests that can be checked without one is
 * checked here: generation drift, schema validity, settings names, shutdown timings, paths.
 */
const ROOT = join(__dirname, '..', '..');
const read = (...p: string[]) => readFileSync(join(ROOT, ...p), 'utf8');
const settingNames = new Set(Object.keys(configSchema.innerType().shape));

interface K8sObject { kind: string; metadata: { name: string }; spec?: unknown; data?: Record<string, string> }
const manifest = <T extends K8sObject>(file: string) => yaml.load(read('deploy', 'k8s', 'manifests', file)) as T;

interface Probe { httpGet: { path: string; port: string } }
interface Container {
  image: string; ports: Array<{ name: string; containerPort: number }>;
  livenessProbe: Probe; readinessProbe: Probe; startupProbe: Probe;
  lifecycle: { preStop: { sleep: { seconds: number } } };
  securityContext: { readOnlyRootFilesystem: boolean; allowPrivilegeEscalation: boolean };
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  envFrom: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
}
interface DeploymentSpec {
  template: { spec: { terminationGracePeriodSeconds: number; securityContext: { runAsNonRoot: boolean; runAsUser: number }; containers: Container[] } };
}
interface RuleGroup { name: string; rules: Array<{ record?: string; alert?: string; expr: unknown }> }

describe('Kubernetes manifests (deploy/k8s)', () => {
  it('when they are regenerated from deploy/k8s/src with schema validation, then the result is exactly the committed YAML', () => {
    mkdirSync(join(ROOT, 'dist'), { recursive: true });
    const out = mkdtempSync(join(ROOT, 'dist', 'k8s-check-'));
    try {
      execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'deploy', 'k8s', 'tsconfig.json'), '--outDir', out], { stdio: 'pipe' });
      const run = () => execFileSync(process.execPath, [join(out, 'src', 'generate.mjs'), '--check', '--root', ROOT], { stdio: 'pipe', encoding: 'utf8' });
      expect(run()).toMatch(/8 manifest\(s\) match/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('when the ConfigMap is read, then it names only settings the service knows', () => {
    const data = manifest<K8sObject>('configmap.yaml').data ?? {};
    expect(Object.keys(data).length).toBeGreaterThan(5);
    for (const name of Object.keys(data)) expect({ name, known: settingNames.has(name) }).toEqual({ name, known: true });
  });

  it("when its settings are validated in production mode, then the service's own validation passes them", () => {
    const data = manifest<K8sObject>('configmap.yaml').data ?? {};
    expect(loadConfig({ ...data }).NODE_ENV).toBe('production');
  });

  it('when the Deployment is read, then it probes /healthz and /readyz, stops gracefully and runs unprivileged', () => {
    const config = manifest<K8sObject>('configmap.yaml').data ?? {};
    const spec = manifest<K8sObject & { spec: DeploymentSpec }>('deployment.yaml').spec.template.spec;
    const container = spec.containers[0];
    if (!container) throw new Error('the Deployment has no container');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(container.startupProbe.httpGet.path).toBe('/healthz');
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.image).toMatch(/@sha256:[0-9a-f]{64}$/);
    // The kubelet must never SIGKILL a draining pod: preStop + readiness delay + drain grace fit in the grace period.
    const needS = container.lifecycle.preStop.sleep.seconds
      + (Number(config.SHUTDOWN_READINESS_DELAY_MS) + Number(config.SHUTDOWN_GRACE_MS)) / 1000;
    expect(Number.isFinite(needS)).toBe(true);
    expect(spec.terminationGracePeriodSeconds).toBeGreaterThan(needS);
    expect(spec.securityContext.runAsNonRoot).toBe(true);
    expect(spec.securityContext.runAsUser).toBeGreaterThan(0);
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    expect(container.resources.requests.cpu).toBeDefined();
    expect(container.resources.limits.memory).toBeDefined();
    expect(container.envFrom.some((e) => e.configMapRef?.name === 'verify-customer-config')).toBe(true);
  });

  it("when probes, scrape and ingress are read, then the probes and the scrape use the admin port (ADMIN_PORT), which only the monitoring namespace may reach, and the ingress reaches only the partners' port", () => {
    const config = manifest<K8sObject>('configmap.yaml').data ?? {};
    const container = manifest<K8sObject & { spec: DeploymentSpec }>('deployment.yaml').spec.template.spec.containers[0];
    if (!container) throw new Error('the Deployment has no container');
    const portOf = (name: string) => container.ports.find((p) => p.name === name)?.containerPort;
    expect(portOf('admin')).toBe(Number(config.ADMIN_PORT));
    expect(portOf('http')).toBe(Number(config.PORT));
    for (const probe of [container.livenessProbe, container.readinessProbe, container.startupProbe]) expect(probe.httpGet.port).toBe('admin');
    const monitor = manifest<K8sObject & { spec: { endpoints: Array<{ port: string; path: string }> } }>('servicemonitor.yaml');
    expect(monitor.spec.endpoints).toEqual([expect.objectContaining({ port: 'admin', path: '/metrics' })]);
    const svcPorts = manifest<K8sObject & { spec: { ports: Array<{ name: string; targetPort: string }> } }>('service.yaml').spec.ports;
    expect(svcPorts.find((p) => p.name === 'admin')?.targetPort).toBe('admin');
    type Rule = { from: Array<{ namespaceSelector: { matchLabels: Record<string, string> } }>; ports: Array<{ port: number }> };
    const rules = manifest<K8sObject & { spec: { ingress: Rule[] } }>('networkpolicy.yaml').spec.ingress;
    const reach = rules.map((r) => ({ from: r.from.map((f) => f.namespaceSelector.matchLabels['kubernetes.io/metadata.name']), ports: r.ports.map((p) => p.port) }));
    expect(reach).toEqual([{ from: ['ingress-nginx'], ports: [Number(config.PORT)] }, { from: ['monitoring'], ports: [Number(config.ADMIN_PORT)] }]);
  });

  it('when the PrometheusRule is read, then it carries exactly the groups and rules of grafana/prometheus/rules.yml', () => {
    const source = (yaml.load(read('grafana', 'prometheus', 'rules.yml')) as { groups: RuleGroup[] }).groups;
    const generated = manifest<K8sObject & { spec: { groups: RuleGroup[] } }>('prometheusrule.yaml').spec.groups;
    const shape = (gs: RuleGroup[]) => gs.map((g) => ({ name: g.name, rules: g.rules.map((r) => ({ id: r.record ?? r.alert, expr: String(r.expr) })) }));
    expect(shape(generated)).toEqual(shape(source));
  });

  it('when the Service, PodDisruptionBudget, HPA, NetworkPolicy and ServiceMonitor are read, then they select the same pods', () => {
    const selector = { 'app.kubernetes.io/name': 'verify-customer' };
    expect((manifest<K8sObject & { spec: { selector: unknown } }>('service.yaml')).spec.selector).toEqual(selector);
    expect((manifest<K8sObject & { spec: { selector: { matchLabels: unknown } } }>('poddisruptionbudget.yaml')).spec.selector.matchLabels).toEqual(selector);
    expect((manifest<K8sObject & { spec: { podSelector: { matchLabels: unknown } } }>('networkpolicy.yaml')).spec.podSelector.matchLabels).toEqual(selector);
    expect((manifest<K8sObject & { spec: { selector: { matchLabels: unknown } } }>('servicemonitor.yaml')).spec.selector.matchLabels).toEqual(selector);
    expect((manifest<K8sObject & { spec: { scaleTargetRef: { name: string } } }>('horizontalpodautoscaler.yaml')).spec.scaleTargetRef.name).toBe('verify-customer');
  });
});

describe('Dockerfile', () => {
  const text = read('Dockerfile');
  // One entry per instruction: comments dropped, backslash continuations joined.
  const lines = text.split('\n').filter((l) => !l.trimStart().startsWith('#')).join('\n')
    .replace(/\\\n\s*/g, ' ').split('\n').filter((l) => l.trim() !== '');
  const instructions = (name: string) => lines.filter((l) => l.trimStart().toUpperCase().startsWith(`${name} `));

  it('when the Dockerfile is read, then it is multi-stage on a Node 24 slim base pinned by digest', () => {
    expect(instructions('FROM').length).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/ARG NODE_IMAGE=node:24[\w.-]*-slim@sha256:[0-9a-f]{64}/);
  });

  it('when the runtime image is built, then it gets production dependencies only and runs as a non-root user', () => {
    expect(text).toMatch(/npm (ci|prune)[^\n]*--omit=dev/);
    const users = instructions('USER');
    expect(users.length).toBeGreaterThan(0);
    expect(users[users.length - 1]).not.toMatch(/\broot\b|\b0\b/);
  });

  it('when the container runs, then it has a HEALTHCHECK on /healthz and signals reach node (exec form, no npm in the process tree)', () => {
    expect(instructions('HEALTHCHECK').join('\n')).toMatch(/\/healthz/);
    const cmd = instructions('CMD').pop() ?? '';
    expect(cmd).toMatch(/^CMD \["node",/);
    expect(text).not.toMatch(/^(CMD|ENTRYPOINT)[^\n]*\bnpm\b/m);
    expect(instructions('ENTRYPOINT').pop()).toMatch(/^ENTRYPOINT \["[^"]*tini", "--"\]$/);
  });

  it('when node starts in the image, then it has the V8 flags of npm start (what the bench measures: --max-semi-space-size keeps peak RSS down)', () => {
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    const start = /^node\s+(.*?)\s*dist\/src\/main\.js$/.exec(pkg.scripts.start ?? '');
    const flags = (start?.[1] ?? '').split(/\s+/).filter(Boolean);
    expect(flags.length).toBeGreaterThan(0);
    expect(instructions('CMD').pop()).toBe(`CMD ${JSON.stringify(['node', ...flags, 'dist/src/main.js']).replace(/","/g, '", "')}`);
  });

  it('when files are copied into the image, then only paths that exist are named, including every file the service reads at run time', () => {
    const sources = instructions('COPY').filter((l) => !l.includes('--from=')).flatMap((l) => {
      const parts = l.trim().split(/\s+/).slice(1).filter((p) => !p.startsWith('--'));
      return parts.slice(0, -1);
    });
    for (const s of sources) expect({ s, exists: existsSync(join(ROOT, s)) }).toEqual({ s, exists: true });
    // Every file or folder the code finds from the repository root at run time.
    const assets = new Set<string>();
    const scan = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) scan(p);
        else if (e.name.endsWith('.ts')) for (const m of readFileSync(p, 'utf8').matchAll(/join\(repoRoot\(\), ((?:'[^']+'(?:, )?)+)\)/g)) assets.add((m[1] ?? '').replace(/'/g, '').split(', ').join('/'));
      }
    };
    scan(join(ROOT, 'src'));
    expect(assets.size).toBeGreaterThanOrEqual(5);
    for (const asset of assets) expect({ asset, copied: sources.some((s) => asset === s || asset.startsWith(`${s}/`)) }).toEqual({ asset, copied: true });
  });
});

describe('compose.yaml', () => {
  interface ComposeService { image?: string; build?: unknown; environment?: Record<string, string>; volumes?: string[]; command?: string[] }
  const compose = yaml.load(read('compose.yaml')) as { services: Record<string, ComposeService> };

  it('when compose starts, then it runs two service instances, Redis, the simulator, Prometheus and Grafana', () => {
    const names = Object.keys(compose.services);
    expect(names.filter((n) => n.startsWith('verify-customer-'))).toHaveLength(2);
    for (const n of ['redis', 'simulator', 'prometheus', 'grafana']) expect(names).toContain(n);
  });

  it('when the instances are configured, then they get only settings the service knows and mount only files that exist', () => {
    for (const [name, svc] of Object.entries(compose.services)) {
      if (name.startsWith('verify-customer-')) {
        for (const key of Object.keys(svc.environment ?? {})) expect({ key, known: settingNames.has(key) }).toEqual({ key, known: true });
      }
      for (const v of svc.volumes ?? []) {
        const [host = ''] = v.split(':');
        if (host.startsWith('.')) expect({ host, exists: existsSync(join(ROOT, host)) }).toEqual({ host, exists: true });
      }
    }
  });

  it("when the instances' settings are validated in production mode, then the service's own validation passes them", () => {
    for (const [name, svc] of Object.entries(compose.services)) {
      if (name.startsWith('verify-customer-')) expect(loadConfig({ ...svc.environment }).NODE_ENV).toBe('production');
    }
  });

  it('when Prometheus scrapes, then it asks each instance on its ADMIN_PORT, where /metrics is served', () => {
    const prom = yaml.load(read('deploy', 'compose', 'prometheus.yml')) as { scrape_configs: Array<{ static_configs: Array<{ targets: string[] }> }> };
    const targets = prom.scrape_configs.flatMap((c) => c.static_configs.flatMap((sc) => sc.targets)).sort();
    const instances = Object.entries(compose.services).filter(([n]) => n.startsWith('verify-customer-'));
    expect(targets).toEqual(instances.map(([n, svc]) => `${n}:${svc.environment?.ADMIN_PORT ?? 'unset'}`).sort());
  });

  it("when promtool checks Prometheus's configuration with our rules beside it, then it passes", () => {
    const dir = mkdtempSync(join(tmpdir(), 'vc-compose-prom-'));
    try {
      copyFileSync(join(ROOT, 'deploy', 'compose', 'prometheus.yml'), join(dir, 'prometheus.yml'));
      copyFileSync(join(ROOT, 'grafana', 'prometheus', 'rules.yml'), join(dir, 'rules.yml'));
      let out: string;
      try {
        out = execFileSync('promtool', ['check', 'config', join(dir, 'prometheus.yml')], { encoding: 'utf8', stdio: 'pipe' });
      } catch (err) {
        const e = err as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
        if (e.code === 'ENOENT') throw new Error('promtool is not installed: apt-get install -y prometheus (it brings promtool)', { cause: err });
        throw new Error(`promtool check config failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`, { cause: err });
      }
      expect(out).toMatch(/SUCCESS/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
