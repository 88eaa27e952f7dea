import { randomBytes } from 'node:crypto';
import { MemorySubscriptionStore } from '../../src/subscriptions/stores/memory-subscription-store';
import { RedisSubscriptionStore } from '../../src/subscriptions/stores/redis-subscription-store';
import { createRedisClient } from '../../src/verification/state/redis-connection';
import { createCredentialCipher } from '../../src/subscriptions/delivery/sink-credential-cipher';
import { SubscriptionRecord } from '../../src/subscriptions/domain/subscription';
import { describeSubscriptionStoreContract } from '../contract/subscription-store.contract';
import { RedisClusterProcess, startRedisCluster } from '../support/redis-cluster';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';

let redis: RedisProcess;
let cluster: RedisClusterProcess;
let seq = 0;
const cipher = createCredentialCipher(randomBytes(32));
/** Redis holds the credential sealed; the delivery opens it with the same key. */
const reveal = (r: SubscriptionRecord | undefined) => (r?.credential ? { ...r, credential: cipher.open(r.credential, r.id) } : r);
beforeAll(async () => {
  redis = await startRedis();
  cluster = await startRedisCluster();
});
afterAll(async () => {
  await redis.stop();
  await cluster.stop();
});

async function ready(client: ReturnType<typeof createRedisClient>): Promise<void> {
  if (client.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve());
    setTimeout(() => reject(new Error('redis not ready')), 5000).unref();
  });
}

describeSubscriptionStoreContract('memory', () => {
  const store = new MemorySubscriptionStore();
  return Promise.resolve({ store, close: () => store.close() });
});

describeSubscriptionStoreContract('redis', async () => {
  const client = createRedisClient({ url: redis.url, commandTimeoutMs: 1000 });
  await ready(client);
  const store = new RedisSubscriptionStore(client, `c${++seq}:`, cipher);
  return { store, close: () => store.close(), reveal };
});

describeSubscriptionStoreContract('redis cluster', async () => {
  const client = createRedisClient({ clusterNodes: cluster.nodes, commandTimeoutMs: 1000 });
  await ready(client);
  const store = new RedisSubscriptionStore(client, `{weird}c${++seq}:`, cipher);
  return { store, close: () => store.close(), reveal };
});
