/** CAMARA SIM Swap Subscriptions 0.3.0 (CONTRACT §8): what a subscription and its events are. */
import { createHash } from 'node:crypto';

export const SWAPPED = 'org.camaraproject.sim-swap-subscriptions.v0.swapped';
export const SUBSCRIPTION_ENDED = 'org.camaraproject.sim-swap-subscriptions.v0.subscription-ended';
export type EventType = typeof SWAPPED | typeof SUBSCRIPTION_ENDED;

/** How the service authenticates to the partner's sink; never shown back to the partner. */
export type SinkCredential =
  | { credentialType: 'PLAIN'; identifier: string; secret: string }
  | { credentialType: 'ACCESSTOKEN'; accessToken: string; accessTokenExpiresUtc: string; accessTokenType: 'bearer' }
  | SealedCredential;

/**
 * A credential as stored at rest (Redis, queued deliveries): encrypted by the adapter that
 * stored it, opened only by the delivery adapter just before the attempt.
 */
export interface SealedCredential { credentialType: 'SEALED'; sealed: string }

/** The reasons this service ends a subscription (the spec's TerminationReason, those that apply). */
export type TerminationReason = 'SUBSCRIPTION_EXPIRED' | 'ACCESS_TOKEN_EXPIRED' | 'MAX_EVENTS_REACHED' | 'SUBSCRIPTION_DELETED';

/**
 * An ACCESSTOKEN credential's subscription ends this long before the token expires: the
 * subscription-ended event is sent with that token, so it must still be valid (the spec asks
 * that the client be told before the expiry).
 */
export const ACCESS_TOKEN_END_LEAD_MS = 60_000;

export interface SubscriptionRecord {
  id: string;
  /** The owning partner's apiKey: only it sees or deletes the subscription. */
  partner: string;
  /** E.164 with `+`. */
  phoneNumber: string;
  /** Normalised msisdn (digits): the key swap events are matched on. */
  msisdn: string;
  /** Created with a three-legged token: the number is never shown back, nor put in events. */
  threeLegged: boolean;
  sink: string;
  credential?: SinkCredential;
  types: string[];
  startsAtMs: number;
  /** subscriptionExpireTime as the partner sent it. */
  subscriptionExpireTime?: string;
  /** When it ends by time: the expire time, or earlier its sink token's end (see expiryReason). */
  expiresAtMs?: number;
  /** Why it ends at expiresAtMs; absent: SUBSCRIPTION_EXPIRED. */
  expiryReason?: 'ACCESS_TOKEN_EXPIRED';
  maxEvents?: number;
}

/** A CloudEvents 1.0 event in structured JSON mode. */
export interface CloudEvent {
  specversion: '1.0';
  id: string;
  source: string;
  type: EventType;
  time: string;
  datacontenttype: 'application/json';
  data: Record<string, string>;
}

/** One event for one sink: what the delivery adapter persists and retries. */
export interface Delivery {
  subscriptionId: string;
  partner: string;
  sink: string;
  credential?: SinkCredential;
  event: CloudEvent;
  /**
   * Sent only once this one is delivered or dead-lettered: a subscription's final
   * subscription-ended must not overtake its last swapped event (docs/camara.md).
   */
  followUp?: Delivery;
}

/**
 * A CloudEvent id derived from what the event is (a name-based UUID, version 5 layout over
 * SHA-256): a retried report or deletion rebuilds the same id, so the queue keeps one job and
 * a sink can drop a repeat. `what` names the event within its subscription.
 */
export function eventIdOf(subscriptionId: string, what: string): string {
  const h = createHash('sha256').update(`${subscriptionId}\n${what}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** A subscription ends once, whatever the reason: one id for its subscription-ended. */
export function endedEventId(subscriptionId: string): string {
  return eventIdOf(subscriptionId, 'subscription-ended');
}

/** The swapped event for the swap known by `swapKey` (the reporter's id, or the subscription's event number). */
export function swappedEventId(subscriptionId: string, swapKey: string): string {
  return eventIdOf(subscriptionId, `swapped ${swapKey}`);
}

const DESCRIPTIONS: Record<TerminationReason, string> = {
  SUBSCRIPTION_EXPIRED: 'subscription expire time reached',
  ACCESS_TOKEN_EXPIRED: 'the sink access token expires',
  MAX_EVENTS_REACHED: 'maximum number of events reached',
  SUBSCRIPTION_DELETED: 'subscription deleted by the requester',
};

function base(sub: SubscriptionRecord, id: string, type: EventType, atMs: number): Omit<CloudEvent, 'data'> {
  return {
    specversion: '1.0', id, type,
    source: `/sim-swap-subscriptions/v0.3/subscriptions/${sub.id}`,
    time: new Date(atMs).toISOString(),
    datacontenttype: 'application/json',
  };
}

/** Data minimisation: the number goes out only when the partner named it (two-legged). */
function subject(sub: SubscriptionRecord): Record<string, string> {
  return sub.threeLegged ? {} : { phoneNumber: sub.phoneNumber };
}

export function swappedEvent(sub: SubscriptionRecord, id: string, atMs: number): Delivery {
  return delivery(sub, { ...base(sub, id, SWAPPED, atMs), data: { ...subject(sub), subscriptionId: sub.id } });
}

export function endedEvent(sub: SubscriptionRecord, id: string, atMs: number, reason: TerminationReason): Delivery {
  return delivery(sub, {
    ...base(sub, id, SUBSCRIPTION_ENDED, atMs),
    data: { ...subject(sub), subscriptionId: sub.id, terminationReason: reason, terminationDescription: DESCRIPTIONS[reason] },
  });
}

/** Why a subscription that reached its expiresAtMs ends. */
export function expiryReasonOf(sub: SubscriptionRecord): TerminationReason {
  return sub.expiryReason ?? 'SUBSCRIPTION_EXPIRED';
}

function delivery(sub: SubscriptionRecord, event: CloudEvent): Delivery {
  const out: Delivery = { subscriptionId: sub.id, partner: sub.partner, sink: sub.sink, event };
  if (sub.credential) out.credential = sub.credential;
  return out;
}
