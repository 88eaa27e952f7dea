/*
 * Names of the webhook queue on Redis, in a module that does not load BullMQ (the CLI and
 * the delivery adapter share them).
 */

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
