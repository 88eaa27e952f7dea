/*
 * Names of the webhook queue on Redis, without BullMQ: the service loads BullMQ only once it
 * has webhook work (on-demand-delivery.ts), and must find the queue's keys before that.
 */
import type { RedisClient } from '../../verification/state/redis-connection';

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
 * BullMQ's keys that exist while jobs are pending (`wait` list, `delayed` and `prioritized`
 * sets, `active` list) and the dead letters' `failed` set. `meta` is written once, without
 * waiting for it, when a Queue opens: if it were lost (a failover before it replicated),
 * pending jobs still show the queue in use.
 */
export function queueWorkKeys(keyPrefix: string): string[] {
  return ['meta', 'wait', 'delayed', 'prioritized', 'active', 'failed'].map((k) => `${queuePrefix(keyPrefix)}:${WEBHOOK_QUEUE}:${k}`);
}

/**
 * Whether the webhook queue has been used on this Redis: any of its keys above exists (one
 * EXISTS; they share one hash tag, so one Cluster slot). Waits for the client to be ready
 * first: the store's fail-fast client refuses a command sent before it has connected.
 */
export async function webhookQueueInUse(client: RedisClient, keyPrefix: string): Promise<boolean> {
  if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
  return (await client.exists(...queueWorkKeys(keyPrefix))) > 0;
}
