import { runCommand } from '../../tools/process-kit/child-process';
import { freePort } from '../../tools/process-kit/net-wait';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { until } from './until';

export interface RedisClusterProcess {
  /** host:port of every master, comma-separated: the REDIS_CLUSTER_NODES form. */
  nodes: string;
  masters: RedisProcess[];
  stop(): Promise<void>;
}

/**
 * A throwaway Redis Cluster of three masters, no replicas, on free ports. Each node gets an
 * explicit bus port (--cluster-port) because the default, port + 10000, may be taken or,
 * for a high port, may not exist.
 */
export async function startRedisCluster(): Promise<RedisClusterProcess> {
  const masters: RedisProcess[] = [];
  const stop = async () => {
    await Promise.all(masters.map((m) => m.stop()));
  };
  try {
    for (let i = 0; i < 3; i++) {
      const busPort = await freePort();
      masters.push(await startRedis([
        '--cluster-enabled', 'yes', '--cluster-port', String(busPort),
        // Short node timeout: a killed master is noticed quickly when a test wants that.
        '--cluster-node-timeout', '2000',
      ]));
    }
    const addrs = masters.map((m) => `127.0.0.1:${m.port}`);
    const created = await runCommand('redis-cli', ['--cluster', 'create', ...addrs, '--cluster-replicas', '0', '--cluster-yes'], { timeoutMs: 20_000 });
    if (created.code !== 0) throw new Error(`redis-cli --cluster create failed (${created.code}): ${created.stderr || created.stdout}`);
    await waitForClusterOk(masters.map((m) => m.port));
    return { nodes: addrs.join(','), masters, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** cluster_state:ok on every node, and every node sees three masters: only then are all slots served. */
async function waitForClusterOk(ports: number[], timeoutMs = 15_000): Promise<void> {
  await until(async () => {
    const states = await Promise.all(ports.map(async (port) => {
      const info = await cli(port, 'cluster', 'info');
      const nodes = await cli(port, 'cluster', 'nodes');
      const masters = nodes.split('\n').filter((l) => /\bmaster\b/.test(l) && !/\bfail/.test(l)).length;
      return /cluster_state:ok/.test(info) && masters === ports.length;
    }));
    return states.every(Boolean);
  }, `redis cluster on ports ${ports.join(',')} at cluster_state:ok`, timeoutMs, 100);
}

async function cli(port: number, ...args: string[]): Promise<string> {
  const r = await runCommand('redis-cli', ['-p', String(port), ...args], { timeoutMs: 5000 });
  return r.code === 0 ? r.stdout : '';
}
