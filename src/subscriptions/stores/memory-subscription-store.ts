import { SubscriptionStore } from '../ports/subscription-store';
import { SubscriptionRecord } from '../domain/subscription';

/** Subscriptions in process memory (embedded default): one instance, gone on restart. */
export class MemorySubscriptionStore implements SubscriptionStore {
  private readonly subs = new Map<string, SubscriptionRecord>();
  private readonly counted = new Map<string, Set<string>>();

  add(sub: SubscriptionRecord): Promise<void> {
    this.subs.set(sub.id, structuredClone(sub));
    return Promise.resolve();
  }

  get(id: string): Promise<SubscriptionRecord | undefined> {
    const s = this.subs.get(id);
    return Promise.resolve(s && structuredClone(s));
  }

  listByPartner(partner: string): Promise<SubscriptionRecord[]> {
    return Promise.resolve([...this.subs.values()].filter((s) => s.partner === partner).map((s) => structuredClone(s)));
  }

  listByMsisdn(msisdn: string): Promise<SubscriptionRecord[]> {
    return Promise.resolve([...this.subs.values()].filter((s) => s.msisdn === msisdn).map((s) => structuredClone(s)));
  }

  eventState(id: string, key: string): Promise<{ count: number; counted: boolean }> {
    const keys = this.counted.get(id);
    return Promise.resolve({ count: keys?.size ?? 0, counted: keys?.has(key) ?? false });
  }

  countEvent(id: string, key: string): Promise<number> {
    const keys = this.counted.get(id) ?? new Set<string>();
    keys.add(key);
    this.counted.set(id, keys);
    return Promise.resolve(keys.size);
  }

  countByPartner(partner: string): Promise<number> {
    let n = 0;
    for (const s of this.subs.values()) if (s.partner === partner) n++;
    return Promise.resolve(n);
  }

  remove(id: string): Promise<SubscriptionRecord | undefined> {
    const s = this.subs.get(id);
    this.subs.delete(id);
    this.counted.delete(id);
    return Promise.resolve(s);
  }

  expired(nowMs: number, limit: number): Promise<string[]> {
    const out: string[] = [];
    for (const s of this.subs.values()) {
      if (out.length >= limit) break;
      if (s.expiresAtMs !== undefined && s.expiresAtMs <= nowMs) out.push(s.id);
    }
    return Promise.resolve(out);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
