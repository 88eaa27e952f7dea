import { SubscriptionStore } from '../../domain/ports/subscription-store';
import { SubscriptionRecord } from '../../domain/subscriptions/subscription';

/** Subscriptions in process memory (embedded default): one instance, gone on restart. */
export class MemorySubscriptionStore implements SubscriptionStore {
  private readonly subs = new Map<string, SubscriptionRecord>();
  private readonly counts = new Map<string, number>();

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

  countEvent(id: string): Promise<number> {
    const n = (this.counts.get(id) ?? 0) + 1;
    this.counts.set(id, n);
    return Promise.resolve(n);
  }

  remove(id: string): Promise<SubscriptionRecord | undefined> {
    const s = this.subs.get(id);
    this.subs.delete(id);
    this.counts.delete(id);
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
