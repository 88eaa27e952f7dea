import { randomUUID } from 'node:crypto';
import { SubscriptionStore } from '../../src/subscriptions/ports/subscription-store';
import { SubscriptionRecord } from '../../src/subscriptions/domain/subscription';

function record(over: Partial<SubscriptionRecord> = {}): SubscriptionRecord {
  return {
    id: randomUUID(), partner: 'p1', phoneNumber: '+255712000001', msisdn: '255712000001', threeLegged: false,
    sink: 'https://sink.example/x', types: ['org.camaraproject.sim-swap-subscriptions.v0.swapped'], startsAtMs: Date.now(),
    ...over,
  };
}

/** What every SubscriptionStore must do: memory (embedded default), Redis and Redis Cluster alike. */
export interface MadeStore {
  store: SubscriptionStore;
  close(): Promise<void>;
  /** A store that seals credentials at rest: the record as its delivery would open it. */
  reveal?: (r: SubscriptionRecord | undefined) => SubscriptionRecord | undefined;
}

export function describeSubscriptionStoreContract(name: string, make: () => Promise<MadeStore>): void {
  describe(`subscription store contract: ${name}`, () => {
    let store: SubscriptionStore;
    let made: MadeStore;
    const reveal = (r: SubscriptionRecord | undefined) => (made.reveal ? made.reveal(r) : r);
    beforeEach(async () => {
      made = await make();
      store = made.store;
    });
    afterEach(async () => made.close());

    test('a stored subscription is found by id, partner and number, credential included', async () => {
      const s = record({ credential: { credentialType: 'PLAIN', identifier: 'i', secret: 's' }, expiresAtMs: Date.now() + 60_000, maxEvents: 3, subscriptionExpireTime: 'x' });
      await store.add(s);
      expect(reveal(await store.get(s.id))).toEqual(s);
      expect((await store.listByPartner('p1')).map(reveal)).toEqual([s]);
      expect((await store.listByMsisdn('255712000001')).map(reveal)).toEqual([s]);
      expect(await store.listByPartner('p2')).toEqual([]);
      expect(await store.listByMsisdn('255712000002')).toEqual([]);
      expect(await store.get('nope')).toBeUndefined();
    });

    test('when events are counted per subscription, then each is counted once however often it is counted', async () => {
      const a = record();
      const b = record();
      await store.add(a);
      await store.add(b);
      expect(await store.eventState(a.id, 'e1')).toEqual({ count: 0, counted: false });
      expect(await store.countEvent(a.id, 'e1')).toBe(1);
      expect(await store.countEvent(a.id, 'e1')).toBe(1);
      expect(await store.eventState(a.id, 'e1')).toEqual({ count: 1, counted: true });
      expect(await store.countEvent(a.id, 'e2')).toBe(2);
      expect(await store.eventState(a.id, 'e3')).toEqual({ count: 2, counted: false });
      expect(await store.countEvent(b.id, 'e1')).toBe(1);
      expect(await store.countByPartner('p1')).toBe(2);
      expect(await store.countByPartner('p9')).toBe(0);
    });

    test('remove returns the record to exactly one of concurrent callers and clears every index', async () => {
      const s = record({ expiresAtMs: Date.now() - 1 });
      await store.add(s);
      await store.countEvent(s.id, 'e1');
      const results = await Promise.all([store.remove(s.id), store.remove(s.id), store.remove(s.id)]);
      expect(results.filter((r) => r !== undefined)).toEqual([s]);
      expect(await store.get(s.id)).toBeUndefined();
      expect(await store.listByPartner('p1')).toEqual([]);
      expect(await store.listByMsisdn('255712000001')).toEqual([]);
      expect(await store.expired(Date.now(), 10)).toEqual([]);
      // A new subscription with the same id would start counting afresh.
      await store.add(s);
      expect(await store.countEvent(s.id, 'e1')).toBe(1);
    });

    test('expired lists ids whose expiry has passed, up to the limit, never those without expiry', async () => {
      const now = Date.now();
      const past = [record({ expiresAtMs: now - 2000 }), record({ expiresAtMs: now - 1000 }), record({ expiresAtMs: now })];
      const future = record({ expiresAtMs: now + 60_000 });
      const never = record();
      for (const s of [...past, future, never]) await store.add(s);
      expect((await store.expired(now, 10)).sort()).toEqual(past.map((s) => s.id).sort());
      expect(await store.expired(now, 2)).toHaveLength(2);
    });
  });
}
