import { SubscriptionRecord } from '../domain/subscription';

/** Where subscriptions live (Redis, or process memory on the embedded defaults). */
export interface SubscriptionStore {
  /** Stores a new subscription and indexes it by number, partner and expiry. */
  add(sub: SubscriptionRecord): Promise<void>;
  get(id: string): Promise<SubscriptionRecord | undefined>;
  listByPartner(partner: string): Promise<SubscriptionRecord[]>;
  listByMsisdn(msisdn: string): Promise<SubscriptionRecord[]>;
  /** Events counted so far, and whether the one known by key is among them. */
  eventState(id: string, key: string): Promise<{ count: number; counted: boolean }>;
  /** Counts the event known by key, once however often it is called; the count after it. */
  countEvent(id: string, key: string): Promise<number>;
  /** Subscriptions the partner holds (expired ones not yet swept included). */
  countByPartner(partner: string): Promise<number>;
  /** Removes it; the record only for the one caller that removed it (ends are announced once). */
  remove(id: string): Promise<SubscriptionRecord | undefined>;
  /** Ids of subscriptions whose expiry is at or before nowMs, at most limit. */
  expired(nowMs: number, limit: number): Promise<string[]>;
  close(): Promise<void>;
}
