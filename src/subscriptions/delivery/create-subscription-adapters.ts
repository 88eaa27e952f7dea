import { StateSettings, usesRedis } from '../../config/state-settings';
import { SubscriptionSettings, webhookPartnerConcurrency } from '../../config/subscription-settings';
import { EventDelivery, SinkPolicy } from '../ports/event-delivery';
import { PartnerRegistry } from '../../partners/partners';
import { SubscriptionStore } from '../ports/subscription-store';
import { WebhookMetrics } from '../ports/webhook-metrics';
import { Logger } from '../../observability/logger';
import { MemorySubscriptionStore } from '../stores/memory-subscription-store';
import { RedisSubscriptionStore } from '../stores/redis-subscription-store';
import { createRedisClient } from '../../verification/state/redis-connection';
import { httpSinkSender } from './http-sink-sender';
import { MemoryDelivery } from './memory-delivery';
import { OnDemandDelivery } from './on-demand-delivery';
import { partnerGate } from './partner-gate';
import { sinkAddressPolicy } from './sink-address-policy';
import { createSinkResolver } from './sink-dns';
import { createCredentialCipher, loadCredentialKey } from './sink-credential-cipher';
import { webhookQueueInUse } from './webhook-queue';

export interface SubscriptionAdapters {
  store: SubscriptionStore;
  /** CONTRACT §8 at creation, with the resolver deliveries use. */
  sinks: SinkPolicy;
  delivery: EventDelivery;
  close(): Promise<void>;
}

/** Subscriptions and deliveries where the state lives: Redis (standalone or Cluster) with BullMQ once needed, else process memory. */
export function createSubscriptionAdapters(config: SubscriptionSettings & StateSettings, adapterDeps: { logger: Logger; metrics: WebhookMetrics; partners: PartnerRegistry }): SubscriptionAdapters {
  const { partners, ...deps } = adapterDeps;
  const rules = { allowHttp: config.SINK_ALLOW_HTTP, allowPrivate: config.SINK_ALLOW_PRIVATE };
  const resolve = createSinkResolver({ servers: config.SINK_DNS_SERVERS?.split(',') ?? [], timeoutMs: config.SINK_DNS_TIMEOUT_MS });
  const sinks = sinkAddressPolicy(rules, resolve);
  const send = partnerGate(httpSinkSender({ ...rules, resolve, timeoutMs: config.WEBHOOK_TIMEOUT_MS }), partners);
  const limits = {
    concurrency: config.WEBHOOK_CONCURRENCY, sinkConcurrency: config.WEBHOOK_SINK_CONCURRENCY,
    partnerConcurrency: webhookPartnerConcurrency(config),
  };
  const retry = { windowMs: config.WEBHOOK_RETRY_WINDOW_S * 1000, baseMs: config.WEBHOOK_BACKOFF_BASE_MS, maxMs: config.WEBHOOK_BACKOFF_MAX_MS };
  const deadLetters = { deadLetterRetentionS: config.WEBHOOK_DEAD_LETTER_RETENTION_S, deadLetterMax: config.WEBHOOK_DEAD_LETTER_MAX };
  // Read at start whatever the state, so a bad key file fails the start naming the setting.
  const cipher = createCredentialCipher(loadCredentialKey(config.SINK_CREDENTIALS_KEY_FILE));
  let store: SubscriptionStore;
  let delivery: EventDelivery;
  if (usesRedis(config)) {
    const client = createRedisClient({ url: config.REDIS_URL, clusterNodes: config.REDIS_CLUSTER_NODES, commandTimeoutMs: Math.max(config.REDIS_COMMAND_TIMEOUT_MS, 1000) });
    client.on('error', () => { /* reported by the state store's own client; commands fail fast as 503 */ });
    if (!config.SINK_CREDENTIALS_KEY_FILE) deps.logger.warn('SINK_CREDENTIALS_KEY_FILE unset: sink credentials are encrypted with a key of this process only; other instances, and this one after a restart, cannot deliver to sinks that need one');
    store = new RedisSubscriptionStore(client, config.REDIS_KEY_PREFIX, cipher);
    delivery = new OnDemandDelivery({
      // BullMQ is required here, not at the top of the file: a service without webhook work never loads it.
      start: async () => {
        const { BullDelivery } = await import('./bullmq-delivery');
        return new BullDelivery({
          connection: { url: config.REDIS_URL, clusterNodes: config.REDIS_CLUSTER_NODES, keyPrefix: config.REDIS_KEY_PREFIX },
          send, retry, ...limits,
          lockMs: config.WEBHOOK_LOCK_MS, closeGraceMs: config.WEBHOOK_TIMEOUT_MS + 2000, cipher, ...deadLetters, ...deps,
        });
      },
      queueInUse: () => webhookQueueInUse(client, config.REDIS_KEY_PREFIX),
      // An instance that has not started joins another's queue within one lock period: the
      // same bound as a dead worker's job being taken over.
      checkEveryMs: config.WEBHOOK_LOCK_MS,
      ...deps,
    });
  } else {
    store = new MemorySubscriptionStore();
    delivery = new MemoryDelivery({ send, retry, ...limits, deadLetterMax: config.WEBHOOK_DEAD_LETTER_MAX, ...deps });
  }
  return {
    store, delivery, sinks,
    close: async () => {
      await delivery.close();
      await store.close();
    },
  };
}
