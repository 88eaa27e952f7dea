import { Redis } from 'ioredis';
import { RedisProcess, startRedis } from '../tools/process-kit/redis-server';

/**
 * What a replica costs: S1 with REDIS_WAIT_REPLICAS=1 (scenario S1+WAIT, target 'waitrepl')
 * needs a master with a replica. A pair of its own, so the other scenarios' Redis stays a
 * single server: the ratio to S1 is what a replica plus WAIT cost together.
 */
export interface ReplicatedRedis {
  master: RedisProcess;
  replica: RedisProcess;
}

export async function startReplicatedRedis(): Promise<ReplicatedRedis> {
  const master = await startRedis();
  const replica = await startRedis(['--replicaof', '127.0.0.1', String(master.port)]);
  const client = new Redis(replica.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    const deadline = Date.now() + 15_000;
    while (!/master_link_status:up/.test(await client.info('replication'))) {
      if (Date.now() > deadline) throw new Error('the bench replica never linked to its master');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    client.disconnect();
  }
  return { master, replica };
}

/** The 'waitrepl' service's Redis settings. */
export function waitEnv(pair: ReplicatedRedis): Record<string, string> {
  return { REDIS_URL: pair.master.url, REDIS_WAIT_REPLICAS: '1' };
}

/**
 * Stops both. Their processes are unref'd (process-kit), so waiting on their exit alone would
 * let Node end the bench with its report unwritten: a timer of ours keeps it alive meanwhile.
 */
export async function stopReplicatedRedis(pair: ReplicatedRedis): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all([pair.replica.stop(), pair.master.stop()]),
    new Promise((resolve) => { timer = setTimeout(resolve, 3000); }),
  ]);
  clearTimeout(timer);
}
