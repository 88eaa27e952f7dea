import { Cluster, Command, Redis } from 'ioredis';
import { ClosingCluster } from './closing-cluster';
import { defineStateScripts } from './redis-scripts';
import { RedisUnavailableError } from './redis-unavailable';

/** A standalone client or a cluster client: every command the store sends touches one key, so both serve. */
export type RedisClient = Redis | Cluster;

export interface RedisConnectionOptions {
  /** redis:// or rediss:// URL of a standalone server. */
  url?: string;
  /** Comma-separated host:port seeds of a Redis Cluster. */
  clusterNodes?: string;
  commandTimeoutMs: number;
}

/** What the store hears about the connection: ready to serve, gone, or worth a check. */
export type ConnectionEvent = 'ready' | 'lost' | 'suspect';

// Reconnect forever, quickly at first: the store returns to Redis by itself once it answers, with no restart or operator.
const reconnectDelayMs = (attempt: number) => Math.min(50 * attempt, 500);

/**
 * Builds the ioredis client. The options all serve one rule: no request waits on a dead Redis.
 * - enableOfflineQueue false: while disconnected a command fails at once instead of queueing.
 * - commandTimeout: a command on a silent connection (no RST) fails after the deadline.
 * - maxRetriesPerRequest 0 and no auto-resend: a command in flight when the link drops is not
 *   replayed after reconnect; a replayed SET NX would find our own claim and answer 409 to us.
 * - enableAutoPipelining: concurrent requests share round trips.
 */
export function createRedisClient(opts: RedisConnectionOptions): RedisClient {
  const connectTimeout = Math.max(1000, opts.commandTimeoutMs * 4);
  const common = {
    commandTimeout: opts.commandTimeoutMs,
    connectTimeout,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    enableAutoPipelining: true,
  };
  let client: RedisClient;
  if (opts.clusterNodes) {
    const nodes = opts.clusterNodes.split(',').map((hp) => {
      const i = hp.lastIndexOf(':');
      return { host: hp.slice(0, i), port: Number(hp.slice(i + 1)) };
    });
    client = new ClosingCluster(nodes, {
      enableOfflineQueue: false,
      // Not on a cluster: ioredis batches auto-pipelined commands per node and handles a MOVED
      // for the whole batch, so after a failover commands keep going to the old node and fail
      // (redis/ioredis#2075; seen here as MOVED replies that never settle). Commands are still
      // written as they come, over one connection per node, so their round trips overlap.
      enableAutoPipelining: false,
      clusterRetryStrategy: (attempt) => reconnectDelayMs(attempt),
      // A master that comes back on the same address is reconnected, not forgotten.
      clusterNodeRetryStrategy: (attempt) => reconnectDelayMs(attempt),
      // Few, short redirection retries: the store's deadline bounds the whole command anyway.
      maxRedirections: 4,
      retryDelayOnClusterDown: 50,
      retryDelayOnTryAgain: 50,
      retryDelayOnFailover: 50,
      slotsRefreshTimeout: connectTimeout,
      // Topology changes (a replica promoted) are seen within this, even while no command runs.
      slotsRefreshInterval: 2000,
      redisOptions: { ...common, enableAutoPipelining: false },
    });
  } else if (opts.url) {
    client = new Redis(opts.url, {
      ...common,
      enableOfflineQueue: false,
      retryStrategy: (attempt) => reconnectDelayMs(attempt),
    });
  } else {
    throw new Error('createRedisClient needs a url or cluster nodes');
  }
  defineStateScripts(client);
  return client;
}

/** Translates the client's events into the three the store acts on. */
export function watchConnection(client: RedisClient, listener: (event: ConnectionEvent, err?: Error) => void): void {
  client.on('ready', () => listener('ready'));
  // Errors repeat on every reconnect attempt; the store logs the first of an outage.
  client.on('error', (err: Error) => listener('suspect', err));
  if (client instanceof Cluster) {
    client.on('end', () => listener('lost'));
    // A node leaving the pool may be a dead master or a topology change: check, do not assume.
    client.on('-node', () => listener('suspect'));
    client.on('node error', (err: Error) => listener('suspect', err));
  } else {
    client.on('close', () => listener('lost'));
  }
}

/**
 * A PING that waits up to timeoutMs for its answer, whatever the client's command timeout: a
 * command's timer is set once, so one set here first is the one that counts. A late answer
 * still proves the connection serves (the health check's question); a silent one does not.
 */
function pingWithin(node: Redis, timeoutMs: number): Promise<unknown> {
  const ping = new Command('ping', []);
  ping.setTimeout(timeoutMs);
  return node.sendCommand(ping) as Promise<unknown>;
}

/**
 * Resolves when every master answers within timeoutMs (and, on a cluster, every slot is served).
 */
export async function probe(client: RedisClient, timeoutMs: number): Promise<void> {
  if (!(client instanceof Cluster)) {
    await pingWithin(client, timeoutMs);
    return;
  }
  if (client.status !== 'ready') throw new RedisUnavailableError(`cluster is ${client.status}`);
  // The pool still holds a master lost to failover until the slots are read again; asking it
  // would fail every probe after a failover, so the probe reads the topology first.
  await new Promise<void>((resolve, reject) => client.refreshSlotsCache((err) => (err ? reject(err) : resolve())));
  const masters = client.nodes('master');
  if (masters.length === 0) throw new RedisUnavailableError('cluster has no reachable master');
  const infos = await Promise.all(masters.map(async (m) => {
    await pingWithin(m, timeoutMs);
    return m.cluster('INFO');
  }));
  if (!infos.every((i) => /cluster_state:ok/.test(String(i)))) throw new RedisUnavailableError('cluster_state is not ok');
}

/** Ends the connection; a polite QUIT first, a cut when the server is gone. */
export async function closeClient(client: RedisClient): Promise<void> {
  if (client.status === 'end') return;
  try {
    await Promise.race([client.quit(), new Promise((_, reject) => setTimeout(() => reject(new Error('quit timed out')), 1000).unref())]);
  } catch {
    client.disconnect();
  }
}
