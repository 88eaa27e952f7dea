import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand } from '../../tools/process-kit/child-process';
import { FleetChild, freePort, sleep, waitForPort } from './child';

/** One line of CLUSTER NODES, as much of it as the fleet needs. */
export interface ClusterNode {
  id: string;
  port: number;
  role: 'master' | 'replica';
  /** For a replica, the id of its master. */
  masterId?: string;
  failed: boolean;
  /** Slot ranges a master serves. */
  slots: string[];
}

export interface RedisClusterOptions {
  dir: string;
  masters?: number;
  replicasPerMaster?: number;
  /** How long a master may be silent before its replicas fail it over. */
  nodeTimeoutMs?: number;
}

/**
 * A Redis Cluster of masters with replicas on free loopback ports (CONTRACT §10), each node with
 * its own directory so a killed node restarts with its identity and rejoins as a replica.
 */
export class RedisClusterWithReplicas {
  readonly nodes: Array<{ port: number; child: FleetChild }> = [];

  private constructor(private readonly opts: Required<RedisClusterOptions>) {}

  static async start(options: RedisClusterOptions): Promise<RedisClusterWithReplicas> {
    const opts = { masters: 3, replicasPerMaster: 1, nodeTimeoutMs: 2000, ...options };
    const cluster = new RedisClusterWithReplicas(opts);
    try {
      await cluster.launch();
      return cluster;
    } catch (err) {
      await cluster.stop();
      throw err;
    }
  }

  /** host:port of every node: the REDIS_CLUSTER_NODES form (the client discovers roles itself). */
  get seedNodes(): string {
    return this.nodes.map((n) => `127.0.0.1:${n.port}`).join(',');
  }

  private async launch(): Promise<void> {
    const total = this.opts.masters * (1 + this.opts.replicasPerMaster);
    for (let i = 0; i < total; i++) {
      const port = await freePort();
      const busPort = await freePort();
      const dir = join(this.opts.dir, `redis-${port}`);
      mkdirSync(dir, { recursive: true });
      const child = new FleetChild(`redis-${port}`, 'redis-server', [
        '--port', String(port), '--bind', '127.0.0.1', '--dir', dir,
        '--save', '', '--appendonly', 'no',
        '--cluster-enabled', 'yes', '--cluster-port', String(busPort),
        '--cluster-config-file', 'nodes.conf',
        '--cluster-node-timeout', String(this.opts.nodeTimeoutMs),
        // A replica may take over however long it was cut off: the fleet prefers availability.
        '--cluster-replica-validity-factor', '0',
      ], { PATH: process.env.PATH }, join(this.opts.dir, `redis-${port}.log`));
      child.start();
      this.nodes.push({ port, child });
    }
    await Promise.all(this.nodes.map((n) => waitForPort(n.port, `redis-server ${n.port}`, 5000)));
    const created = await runCommand('redis-cli', ['--cluster', 'create', ...this.nodes.map((n) => `127.0.0.1:${n.port}`),
      '--cluster-replicas', String(this.opts.replicasPerMaster), '--cluster-yes'], { timeoutMs: 30_000 });
    if (created.code !== 0) throw new Error(`redis-cli --cluster create failed:\n${created.stdout}${created.stderr}`);
    await this.waitHealthy(30_000);
  }

  /** CLUSTER NODES as seen by the first node that answers. */
  async topology(): Promise<ClusterNode[]> {
    for (const n of this.nodes) {
      if (!n.child.running) continue;
      const text = await cli(n.port, 'cluster', 'nodes');
      if (text) return parseClusterNodes(text);
    }
    throw new Error('no Redis node answers');
  }

  /** Every slot served by a live master, every master with its replicas attached, on every live node's view. */
  async waitHealthy(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await this.healthy()) return;
      if (Date.now() > deadline) throw new Error(`redis cluster not healthy within ${timeoutMs} ms:\n${await cli(this.nodes[0]?.port ?? 0, 'cluster', 'nodes')}`);
      await sleep(200);
    }
  }

  private async healthy(): Promise<boolean> {
    const live = this.nodes.filter((n) => n.child.running);
    for (const n of live) {
      if (!/cluster_state:ok/.test(await cli(n.port, 'cluster', 'info'))) return false;
    }
    const nodes = parseClusterNodes(await cli(live[0]?.port ?? 0, 'cluster', 'nodes'));
    const masters = nodes.filter((n) => n.role === 'master' && !n.failed && n.slots.length > 0);
    const replicas = nodes.filter((n) => n.role === 'replica' && !n.failed);
    if (masters.length !== this.opts.masters || replicas.length < live.length - this.opts.masters) return false;
    // Replication links up: each live replica reports master_link_status:up.
    for (const r of replicas) {
      if (!/master_link_status:up/.test(await cli(r.port, 'info', 'replication'))) return false;
    }
    return true;
  }

  /** SIGKILLs the master that serves `key`'s hash slot and returns its port and id. */
  async killMasterOf(key: string): Promise<{ port: number; id: string; slot: number }> {
    const nodes = await this.topology();
    const asker = nodes.find((n) => !n.failed);
    const slot = Number((await cli(asker?.port ?? 0, 'cluster', 'keyslot', key)).trim());
    if (!Number.isInteger(slot)) throw new Error(`no hash slot for ${key}`);
    const victim = nodes.find((n) => n.role === 'master' && !n.failed && n.slots.some((r) => inRange(r, slot)));
    if (!victim) throw new Error(`no live master serves slot ${slot}`);
    await this.node(victim.port).child.kill();
    return { port: victim.port, id: victim.id, slot };
  }

  /** Resolves once a former replica of `masterId` serves slots as a master; returns the ms it took. */
  async waitPromotion(masterId: string, timeoutMs: number): Promise<number> {
    const start = Date.now();
    for (;;) {
      const nodes = await this.topology().catch(() => []);
      const promoted = nodes.find((n) => n.role === 'master' && !n.failed && n.slots.length > 0 && n.id !== masterId
        && this.formerReplicaOf.get(n.id) === masterId);
      if (promoted) return Date.now() - start;
      if (Date.now() - start > timeoutMs) throw new Error(`no replica of ${masterId} was promoted within ${timeoutMs} ms`);
      await sleep(100);
    }
  }

  /** replica id → master id, as recorded by rememberReplicas(). */
  private formerReplicaOf = new Map<string, string>();

  async rememberReplicas(): Promise<void> {
    this.formerReplicaOf = new Map((await this.topology()).filter((n) => n.role === 'replica' && n.masterId)
      .map((n) => [n.id, n.masterId as string]));
  }

  /** Starts a stopped node again on its port, with its own nodes.conf: it rejoins the cluster. */
  async restart(port: number): Promise<void> {
    const n = this.node(port);
    n.child.start();
    await waitForPort(port, `redis-server ${port}`, 5000);
  }

  /** Kills every node (the whole cluster gone). */
  async killAll(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.child.kill()));
  }

  /** Starts every stopped node again. */
  async restartAll(): Promise<void> {
    for (const n of this.nodes) if (!n.child.running) n.child.start();
    await Promise.all(this.nodes.map((n) => waitForPort(n.port, `redis-server ${n.port}`, 5000)));
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.child.kill()));
  }

  private node(port: number): { port: number; child: FleetChild } {
    const n = this.nodes.find((x) => x.port === port);
    if (!n) throw new Error(`no redis node on port ${port}`);
    return n;
  }
}

/** Parses CLUSTER NODES: `<id> <ip:port@bus> <flags> <master> <ping> <pong> <epoch> <link> <slot>...`. */
export function parseClusterNodes(text: string): ClusterNode[] {
  return text.split('\n').filter((l) => l.trim() !== '').map((line) => {
    const [id = '', addr = '', flags = '', master = '-', , , , , ...slots] = line.trim().split(/\s+/);
    const port = Number(/:(\d+)@/.exec(addr)?.[1] ?? 0);
    const flagSet = new Set(flags.split(','));
    const node: ClusterNode = {
      id, port,
      role: flagSet.has('slave') ? 'replica' : 'master',
      failed: flagSet.has('fail') || flagSet.has('fail?') || flagSet.has('noaddr'),
      slots: slots.filter((s) => /^\d/.test(s)),
    };
    if (master !== '-') node.masterId = master;
    return node;
  });
}

/** True when a CLUSTER NODES slot entry ("5461-10922" or "42") holds slot. */
function inRange(range: string, slot: number): boolean {
  const [from, to = from] = range.split('-').map(Number);
  return from !== undefined && to !== undefined && slot >= from && slot <= to;
}

/** A redis-cli command's output; empty when the node does not answer. */
async function cli(port: number, ...args: string[]): Promise<string> {
  const r = await runCommand('redis-cli', ['-p', String(port), ...args], { timeoutMs: 3000 });
  return r.code === 0 ? r.stdout : '';
}
