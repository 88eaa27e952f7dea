/*
 * Names of the webhook queue on Redis, without BullMQ: the service loads BullMQ only once it
 * has webhook work (on-demand-delivery.ts), and must find the queue's keys before that.
 */
import type { RedisClient } from '../state/redis-connection';

export const WEBHOOK_QUEUE = 'webhooks';

export interface BullConnectionOptions {
  url?: string;
  clusterNodes?: string;
  keyPrefix: string;
}

/** The queue's key prefix: one hash tag, so every key of the queue sits on one Cluster slot. */
export function queuePrefix(keyPrefix: string): string {
  return `{${keyPrefix.replace(/[{}]/g, '')}webhooks}`;
}

/**
 * BullMQ's `meta` hash of the queue (`<prefix>:<name>:meta`), written by every BullMQ Queue
 * when it opens (an instance's delivery, the CLI): it exists once the queue has been used,
 * and stays (completed jobs, dead letters) until the queue is obliterated.
 */
export function queueMetaKey(keyPrefix: string): string {
  return `${queuePrefix(keyPrefix)}:${WEBHOOK_QUEUE}:meta`;
}

/**
 * Whether the webhook queue has been used on this Redis. Waits for the client to be ready
 * first: the store's fail-fast client refuses a command sent before it has connected.
 */
export async function webhookQueueInUse(client: RedisClient, keyPrefix: string): Promise<boolean> {
  if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
  return (await client.exists(queueMetaKey(keyPrefix))) > 0;
}
