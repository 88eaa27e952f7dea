import { FilePartnerRegistry } from '../../src/partners/file-partner-registry';
import { defaultPartnersPath } from '../../src/kernel/repo-paths';
import { Redis } from 'ioredis';
import { createSubscriptionAdapters } from '../../src/subscriptions/delivery/create-subscription-adapters';
import { OnDemandDelivery } from '../../src/subscriptions/delivery/on-demand-delivery';
import { queueMetaKey, webhookQueueInUse } from '../../src/subscriptions/delivery/webhook-queue';
import { loadConfig } from '../../src/config/config';
import { noopWebhookMetrics } from '../../src/subscriptions/ports/webhook-metrics';
import { SWAPPED, Delivery } from '../../src/subscriptions/domain/subscription';
import { createLogger } from '../../src/observability/logger';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { SinkServer, startSink } from '../support/sink-server';
import { until } from '../support/until';

/*
 * BullMQ costs the process 5–6 MB of live heap and about 20 MB of peak RSS under load
 * (docs/performance.md): an instance loads it only once it has webhook work.
 */

let mockBullmqLoads = 0;
jest.mock('bullmq', () => {
  mockBullmqLoads++;
  return jest.requireActual<object>('bullmq');
});

const PREFIX = 'ondemand:';

/** EXISTS commands Redis has run (the instances' queue checks, and the probe's own). */
async function existsCalls(probe: Redis): Promise<number> {
  return Number(/cmdstat_exists:calls=(\d+)/.exec(await probe.info('commandstats'))?.[1] ?? 0);
}

function delivery(sink: string, id: string): Delivery {
  return {
    subscriptionId: 'sub-1', partner: 'demo-key', sink,
    event: { specversion: '1.0', id, source: '/sim-swap-subscriptions/v0.3/subscriptions/sub-1', type: SWAPPED, time: new Date().toISOString(), datacontenttype: 'application/json', data: { subscriptionId: 'sub-1' } },
  };
}

describe('BullMQ on Redis, loaded only once there is webhook work', () => {
  let redis: RedisProcess;
  let sink: SinkServer;
  let probe: Redis;

  beforeAll(async () => {
    redis = await startRedis();
    sink = await startSink();
    probe = new Redis(redis.url);
  });
  afterAll(async () => {
    probe.disconnect();
    await sink.close();
    await redis.stop();
  });

  test('when two instances have no event, then neither loads BullMQ; when the first event comes, then it loads it and the idle instance joins the queue', async () => {
    const config = loadConfig({
      REDIS_URL: redis.url, REDIS_KEY_PREFIX: PREFIX, SINK_ALLOW_HTTP: 'true', SINK_ALLOW_PRIVATE: 'true', WEBHOOK_LOCK_MS: '1000',
    });
    const deps = { logger: createLogger('silent'), metrics: noopWebhookMetrics, partners: new FilePartnerRegistry(defaultPartnersPath()) };
    // Positive control: the window is the instances' own checks, counted by Redis (each asks at
    // start, then every WEBHOOK_LOCK_MS), not a guessed time.
    const checksBefore = await existsCalls(probe);
    const a = createSubscriptionAdapters(config, deps);
    const b = createSubscriptionAdapters(config, deps);
    try {
      expect(b.delivery).toBeInstanceOf(OnDemandDelivery);
      const idle = b.delivery as OnDemandDelivery;
      // Both have connected and asked whether the queue is in use, and asked again.
      await until(async () => (await existsCalls(probe)) >= checksBefore + 4, 'two checks of the queue by each instance');
      expect(mockBullmqLoads).toBe(0);
      expect(await probe.exists(queueMetaKey(PREFIX))).toBe(0);
      expect(idle.isStarted).toBe(false);

      await a.delivery.enqueue([delivery(`${sink.url}/on-demand`, 'evt-1')]);
      expect(mockBullmqLoads).toBe(1);
      // The key the idle instances watch is the one BullMQ writes.
      expect(await probe.exists(queueMetaKey(PREFIX))).toBe(1);
      const [got] = await sink.waitFor((d) => d.length >= 1);
      expect(got.body.id).toBe('evt-1');

      await until(() => idle.isStarted, 'the idle instance joining the queue', 5000);
    } finally {
      await a.close();
      await b.close();
    }
  });
  test('when a queue has a job pending but its meta key is gone (lost in a failover), then it counts as in use', async () => {
    const config = loadConfig({
      REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'pending:', SINK_ALLOW_HTTP: 'true', SINK_ALLOW_PRIVATE: 'true', WEBHOOK_LOCK_MS: '1000',
    });
    const a = createSubscriptionAdapters(config, { logger: createLogger('silent'), metrics: noopWebhookMetrics, partners: new FilePartnerRegistry(defaultPartnersPath()) });
    sink.reply = () => 503;
    try {
      expect(await webhookQueueInUse(probe, 'pending:')).toBe(false);
      await a.delivery.enqueue([delivery(`${sink.url}/failing`, 'evt-pending')]);
      await until(() => sink.received.some((r) => r.body.id === 'evt-pending'), 'the first delivery attempt', 5000);
      // Refused once: the job waits in BullMQ's delayed set for its retry.
      await probe.del(queueMetaKey('pending:'));
      expect(await webhookQueueInUse(probe, 'pending:')).toBe(true);
    } finally {
      sink.reply = () => 204;
      await a.close();
    }
  });
});
