import { SubscriptionRecord } from '../subscriptions/subscription';

/** Where subscriptions live (Redis, or process memory on the embedded defaults). */
export interface SubscriptionStore {
  /** Stores a new subscription and indexes it by number, partner and expiry. */
  add(sub: SubscriptionRecord): Promise<void>;
  get(id: string): Promise<SubscriptionRecord | undefined>;
  listByPartner(partner: string): Promise<SubscriptionRecord[]>;
  listByMsisdn(msisdn: string): Promise<SubscriptionRecord[]>;
  /** Counts one event for the subscription; the count after this one. */
  countEvent(id: string): Promise<number>;
  /** Removes it; the record only for the one caller that removed it (ends are announced once). */
  remove(id: string): Promise<SubscriptionRecord | undefined>;
  /** Ids of subscriptions whose expiry is at or before nowMs, at most limit. */
  expired(nowMs: number, limit: number): Promise<string[]>;
  close(): Promise<void>;
}
