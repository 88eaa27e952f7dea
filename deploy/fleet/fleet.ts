import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FleetChild, freePort, sleep, waitForPort } from './child';
import { Haproxy } from './haproxy';
import { Prometheus } from './prometheus';
import { RedisClusterWithReplicas } from './redis-cluster';

export interface FleetOptions {
  /** The repository root: dist/src must be built (npm run build). */
  root: string;
  instances?: number;
  /** The balancer's port; 0 picks a free one. */
  port?: number;
  /** Start Prometheus scraping every instance (npm run fleet does; most tests need not). */
  prometheus?: boolean;
  /** HAProxy's /readyz check interval. */
  checkIntervalMs?: number;
  /** Settings for every instance on top of the fleet's own. */
  env?: Record<string, string>;
  /** Keep the logs and configs (npm run fleet prints where). */
  keepDir?: boolean;
}

export interface FleetInstance {
  name: string;
  port: number;
  url: string;
  /** ADMIN_PORT: /healthz, /readyz, /metrics and /internal/events/* (the partners' port answers them 404). */
  adminPort: number;
  adminUrl: string;
  child: FleetChild;
}

/**
 * The local fleet of CONTRACT §10 on loopback: HAProxy in front of N service instances on a
 * Redis Cluster of three masters with one replica each, the upstream simulator, and
 * optionally Prometheus. `npm run fleet` and the fleet tests both use this.
 */
export class Fleet {
  readonly instances: FleetInstance[] = [];
  simulator!: FleetChild;
  simulatorUrl = '';
  redis!: RedisClusterWithReplicas;
  haproxy!: Haproxy;
  prometheus: Prometheus | undefined;
  url = '';
  statsUrl = '';
  prometheusUrl = '';
  readonly eventsToken = 'fleet-events-token';
  /** The built-in OAuth issuer's one signing key (PEM), shared by every instance. */
  signingKeyFile = '';

  private constructor(readonly dir: string, private readonly opts: Required<Omit<FleetOptions, 'env'>> & { env: Record<string, string> }) {}

  static async start(options: FleetOptions): Promise<Fleet> {
    const opts = { instances: 3, port: 0, prometheus: false, checkIntervalMs: 500, keepDir: false, env: {}, ...options };
    const fleet = new Fleet(mkdtempSync(join(tmpdir(), 'vc-fleet-')), opts);
    try {
      await fleet.launch();
      return fleet;
    } catch (err) {
      await fleet.stop();
      throw err;
    }
  }

  private async launch(): Promise<void> {
    const { root } = this.opts;
    this.redis = await RedisClusterWithReplicas.start({ dir: this.dir });

    const simPort = await freePort();
    this.simulator = new FleetChild('simulator', process.execPath, [join(root, 'dist', 'src', 'simulator', 'main.js')],
      { PATH: process.env.PATH, SIMULATOR_PORT: String(simPort), SIMULATOR_SYNTHETIC: 'true' }, join(this.dir, 'simulator.log'));
    this.simulator.start();
    await waitForPort(simPort, 'simulator', 10_000);
    this.simulatorUrl = `http://127.0.0.1:${simPort}`;

    // The balancer's address is the fleet's public URL (the OAuth issuer every instance names),
    // so it is chosen before the instances start.
    const port = this.opts.port || await freePort();
    this.url = `http://127.0.0.1:${port}`;
    this.signingKeyFile = writeSigningKey(this.dir);
    for (let i = 1; i <= this.opts.instances; i++) {
      const [instancePort, adminPort] = [await freePort(), await freePort()];
      const name = `i${i}`;
      const child = new FleetChild(`verify-customer-${name}`, process.execPath, [join(root, 'dist', 'src', 'main.js')],
        this.instanceEnv(instancePort, adminPort), join(this.dir, `${name}.log`));
      this.instances.push({ name, port: instancePort, url: `http://127.0.0.1:${instancePort}`, adminPort, adminUrl: `http://127.0.0.1:${adminPort}`, child });
    }
    for (const inst of this.instances) inst.child.start();
    await Promise.all(this.instances.map((inst) => this.waitReady(inst, 30_000)));

    const statsPort = await freePort();
    this.haproxy = new Haproxy({
      dir: this.dir, port, statsPort, checkIntervalMs: this.opts.checkIntervalMs,
      servers: this.instances.map((i) => ({ name: i.name, port: i.port, checkPort: i.adminPort })),
    });
    await this.haproxy.start();
    this.statsUrl = `http://127.0.0.1:${statsPort}/stats`;
    await Promise.all(this.instances.map((i) => this.waitInRotation(i.name, 15_000)));

    if (this.opts.prometheus) {
      const promPort = await freePort();
      this.prometheus = new Prometheus({
        dir: this.dir, port: promPort, rulesFile: join(root, 'grafana', 'prometheus', 'rules.yml'),
        targets: this.instances.map((i) => `127.0.0.1:${i.adminPort}`), haproxyTarget: `127.0.0.1:${statsPort}`,
      });
      await this.prometheus.start();
      this.prometheusUrl = `http://127.0.0.1:${promPort}`;
    }
  }

  private instanceEnv(port: number, adminPort: number): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      // Probes, metrics and events apart from the partners' traffic, as compose and Kubernetes run it.
      ADMIN_PORT: String(adminPort),
      // One service for OAuth too: one signing key and one issuer (the balancer), so a token
      // from any instance is accepted by every other (docs/fleet.md).
      OAUTH_SIGNING_KEY_FILE: this.signingKeyFile,
      PUBLIC_URL: this.url,
      HLR_URL: `${this.simulatorUrl}/hlr`,
      SIM_URL: `${this.simulatorUrl}/sim`,
      CRM_URL: `${this.simulatorUrl}/crm`,
      REDIS_CLUSTER_NODES: this.redis.seedNodes,
      // Every master has a replica: a txn_id answer waits until the replica holds its record, so
      // a failover cannot lose it (docs/redis.md, "Replicated txn_id records").
      REDIS_WAIT_REPLICAS: '1',
      // HAProxy adds X-Forwarded-For: the client address is the one it saw.
      TRUST_PROXY_HOPS: '1',
      EVENTS_TOKEN: this.eventsToken,
      // Each instance's own audit files and spool, in the fleet's directory (never the repository's ./var).
      AUDIT_DIR: join(this.dir, `audit-${port}`),
      LOG_LEVEL: 'warn',
      // Out of rotation after one failed check, with a margin for a loaded machine.
      SHUTDOWN_READINESS_DELAY_MS: String(this.opts.checkIntervalMs * 3),
      SHUTDOWN_GRACE_MS: '10000',
      ...this.opts.env,
    };
  }

  instance(name: string): FleetInstance {
    const inst = this.instances.find((i) => i.name === name);
    if (!inst) throw new Error(`no instance ${name}`);
    return inst;
  }

  /** /readyz answers 200 on the instance itself. */
  async waitReady(inst: FleetInstance, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ok = await fetch(`${inst.adminUrl}/readyz`, { signal: AbortSignal.timeout(1000) }).then((r) => r.ok, () => false);
      if (ok) return;
      if (!inst.child.running) throw new Error(`${inst.child.name} exited:\n${inst.child.tail()}`);
      if (Date.now() > deadline) throw new Error(`${inst.child.name} not ready within ${timeoutMs} ms:\n${inst.child.tail()}`);
      await sleep(100);
    }
  }

  /** HAProxy counts the instance UP (its checks passed), so it gets traffic again. */
  async waitInRotation(name: string, timeoutMs: number): Promise<number> {
    return this.waitState(name, (s) => s === 'UP', timeoutMs);
  }

  /** HAProxy took the instance out of rotation; returns the ms it took. */
  async waitOutOfRotation(name: string, timeoutMs: number): Promise<number> {
    return this.waitState(name, (s) => s.startsWith('DOWN') || s === 'MAINT', timeoutMs);
  }

  private async waitState(name: string, ok: (state: string) => boolean, timeoutMs: number): Promise<number> {
    const start = Date.now();
    for (;;) {
      const state = (await this.haproxy.serverStates())[name] ?? '';
      if (ok(state)) return Date.now() - start;
      if (Date.now() - start > timeoutMs) throw new Error(`haproxy: ${name} stayed "${state}" for ${timeoutMs} ms`);
      await sleep(25);
    }
  }

  /** SIGTERM one instance and wait for it to exit (it drains first); returns its exit code. */
  async stopInstance(name: string): Promise<number | null> {
    return this.instance(name).child.stop(30_000);
  }

  async startInstance(name: string): Promise<void> {
    const inst = this.instance(name);
    inst.child.start();
    await this.waitReady(inst, 30_000);
  }

  async stop(): Promise<void> {
    await this.prometheus?.stop();
    await this.haproxy?.stop();
    await Promise.all(this.instances.map((i) => i.child.stop(15_000)));
    await this.simulator?.stop();
    await this.redis?.stop();
    if (!this.opts.keepDir) rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A fresh EC P-256 key (ES256) for this fleet run, readable by its owner only. */
function writeSigningKey(dir: string): string {
  const file = join(dir, 'oauth-signing.pem');
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  return file;
}
