import { MemorySubscriptionStore } from '../../src/subscriptions/stores/memory-subscription-store';
import { AccessGrant } from '../../src/oauth/ports/access-tokens';
import { EventDelivery } from '../../src/subscriptions/ports/event-delivery';
import { Delivery } from '../../src/subscriptions/domain/subscription';
import { SubscriptionService } from '../../src/subscriptions/domain/subscription-service';

const ALL = new Set([
  'sim-swap-subscriptions:org.camaraproject.sim-swap-subscriptions.v0.swapped:create', 'sim-swap-subscriptions:read', 'sim-swap-subscriptions:delete',
]);

function setup() {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const sent: Delivery[] = [];
  // Follow-ups flattened after the event they wait for, as the delivery adapters send them.
  const flat = (ds: Delivery[]): Delivery[] => ds.flatMap((d) => [d, ...(d.followUp ? flat([d.followUp]) : [])]);
  const queue = { failing: false };
  const delivery: EventDelivery = {
    enqueue: (d) => {
      if (queue.failing) return Promise.reject(new Error('queue unavailable'));
      sent.push(...flat(d));
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
  const store = new MemorySubscriptionStore();
  const service = new SubscriptionService({
    store, delivery, clock: { nowMs: () => now }, sinks: { check: () => Promise.resolve() }, plan: { countryCode: '255', nsnLength: 9 },
    admit: () => Promise.resolve(), maxPerPartner: 1000,
  });
  const grant = (apiKey = 'p1', phoneNumber?: string): AccessGrant => ({
    partner: { apiKey } as AccessGrant['partner'], scopes: ALL, ...(phoneNumber ? { phoneNumber } : {}),
  });
  const body = (config: Record<string, unknown> = {}, phone: string | null = '+255712000001') => ({
    protocol: 'HTTP', sink: 'https://sink.example/x', types: ['org.camaraproject.sim-swap-subscriptions.v0.swapped'],
    config: { subscriptionDetail: phone ? { phoneNumber: phone } : {}, ...config },
  });
  return { service, sent, grant, body, queue, store, advance: (ms: number) => { now += ms; } };
}

describe('subscription service', () => {
  test('when maxEvents is 2, then two swapped events are sent, the second followed by MAX_EVENTS_REACHED, and a third swap sends nothing', async () => {
    const t = setup();
    const s = await t.service.create(t.grant(), t.body({ subscriptionMaxEvents: 2 }));
    await t.service.onSwap('255712000001');
    await t.service.onSwap('255712000001');
    await t.service.onSwap('255712000001');
    expect(t.sent.map((d) => [d.event.type.split('.').pop(), d.event.data.terminationReason])).toEqual([
      ['swapped', undefined], ['swapped', undefined], ['subscription-ended', 'MAX_EVENTS_REACHED'],
    ]);
    expect(new Set(t.sent.map((d) => d.event.id)).size).toBe(3);
    await expect(t.service.get(t.grant(), s.id)).rejects.toThrow(/not found/);
  });

  test('when a swap comes after expiry but before the sweep, then SUBSCRIPTION_EXPIRED is announced, not a swap, and the sweep then finds nothing', async () => {
    const t = setup();
    await t.service.create(t.grant(), t.body({ subscriptionExpireTime: '2026-01-01T00:00:10Z' }));
    t.advance(11_000);
    await t.service.onSwap('255712000001');
    expect(t.sent.map((d) => d.event.data.terminationReason)).toEqual(['SUBSCRIPTION_EXPIRED']);
    expect(await t.service.sweepExpired()).toBe(0);
  });

  test('when an ACCESSTOKEN sink credential runs out first, then the subscription ends a minute before, as ACCESS_TOKEN_EXPIRED, with the token', async () => {
    const t = setup();
    const token = (expires: string) => ({ credentialType: 'ACCESSTOKEN', accessTokenType: 'bearer', accessToken: 'tok', accessTokenExpiresUtc: expires });
    const s = await t.service.create(t.grant(), { ...t.body({ subscriptionExpireTime: '2026-01-02T00:00:00Z' }), sinkCredential: token('2026-01-01T01:00:00Z') });
    expect(s.expiresAtMs).toBe(Date.parse('2026-01-01T00:59:00Z'));
    // One whose expire time comes first keeps SUBSCRIPTION_EXPIRED.
    await t.service.create(t.grant(), { ...t.body({ subscriptionExpireTime: '2026-01-01T00:30:00Z' }, '+255712000003'), sinkCredential: token('2026-01-01T01:00:00Z') });
    t.advance(30 * 60_000);
    expect(await t.service.sweepExpired()).toBe(1);
    t.advance(29 * 60_000 - 1);
    expect(await t.service.sweepExpired()).toBe(0);
    t.advance(1);
    expect(await t.service.sweepExpired()).toBe(1);
    expect(t.sent.map((d) => [d.event.data.terminationReason, d.credential?.credentialType])).toEqual([
      ['SUBSCRIPTION_EXPIRED', 'ACCESSTOKEN'], ['ACCESS_TOKEN_EXPIRED', 'ACCESSTOKEN'],
    ]);
    expect(t.sent[1].event.data.subscriptionId).toBe(s.id);
  });

  test('when a swap comes after the sink token ran out, then ACCESS_TOKEN_EXPIRED is announced; when a token expires within the minute, then it is refused at creation', async () => {
    const t = setup();
    const token = (expires: string) => ({ credentialType: 'ACCESSTOKEN', accessTokenType: 'bearer', accessToken: 'tok', accessTokenExpiresUtc: expires });
    await t.service.create(t.grant(), { ...t.body(), sinkCredential: token('2026-01-01T00:02:00Z') });
    t.advance(61_000);
    await t.service.onSwap('255712000001');
    expect(t.sent.map((d) => d.event.data.terminationReason)).toEqual(['ACCESS_TOKEN_EXPIRED']);
    await expect(t.service.create(t.grant(), { ...t.body(), sinkCredential: token('2026-01-01T00:02:01Z') }))
      .rejects.toThrow(/accessTokenExpiresUtc must be more than 60 s in the future/);
  });

  test('when a subscription is three-legged, then the number is kept out of its events and views', async () => {
    const t = setup();
    const s = await t.service.create(t.grant('p1', '+255712000002'), t.body({}, null));
    expect(s.threeLegged).toBe(true);
    await t.service.onSwap('255712000002');
    expect(t.sent[0].event.data).toEqual({ subscriptionId: s.id });
  });

  test("when a partner deletes another partner's subscription, then it is refused as not found and nothing is announced", async () => {
    const t = setup();
    const s = await t.service.create(t.grant('p1'), t.body());
    await expect(t.service.delete(t.grant('p2'), s.id)).rejects.toThrow(/not found/);
    expect(t.sent).toEqual([]);
    await t.service.delete(t.grant('p1'), s.id);
    expect(t.sent.map((d) => d.event.data.terminationReason)).toEqual(['SUBSCRIPTION_DELETED']);
  });

  test('when queueing fails and the swap is reported again, then the retry sends the same events under the same ids and the count moved once', async () => {
    const t = setup();
    const s = await t.service.create(t.grant(), t.body({ subscriptionMaxEvents: 1 }));
    t.queue.failing = true;
    await expect(t.service.onSwap('255712000001')).rejects.toThrow(/queue unavailable/);
    expect(await t.service.get(t.grant(), s.id)).toMatchObject({ id: s.id });
    t.queue.failing = false;
    await t.service.onSwap('255712000001');
    expect(t.sent.map((d) => d.event.type.split('.').pop())).toEqual(['swapped', 'subscription-ended']);
    const ids = t.sent.map((d) => d.event.id);

    // The same report once more, as if the 200 was lost after the state moved: nothing new.
    await t.service.onSwap('255712000001');
    expect(t.sent.map((d) => d.event.id)).toEqual(ids);
    await expect(t.service.get(t.grant(), s.id)).rejects.toThrow(/not found/);
  });

  test('when the reporter repeats its eventId, then the same event id is rebuilt and the event counts once toward the maximum', async () => {
    const t = setup();
    const s = await t.service.create(t.grant(), t.body({ subscriptionMaxEvents: 2 }));
    await t.service.onSwap('255712000001', 'swap-1');
    await t.service.onSwap('255712000001', 'swap-1');
    expect(t.sent).toHaveLength(2);
    expect(t.sent[0].event.id).toBe(t.sent[1].event.id);
    expect(await t.store.eventState(s.id, 'reported swap-1')).toEqual({ count: 1, counted: true });
    await t.service.onSwap('255712000001', 'swap-2');
    expect(t.sent.map((d) => d.event.type.split('.').pop())).toEqual(['swapped', 'swapped', 'swapped', 'subscription-ended']);
    expect(new Set(t.sent.map((d) => d.event.id)).size).toBe(3);
  });

  test('when a deletion fails to queue its event, then the subscription stays and the retried deletion sends SUBSCRIPTION_DELETED under the one ended id', async () => {
    const t = setup();
    const s = await t.service.create(t.grant(), t.body());
    t.queue.failing = true;
    await expect(t.service.delete(t.grant(), s.id)).rejects.toThrow(/queue unavailable/);
    t.queue.failing = false;
    await t.service.delete(t.grant(), s.id);
    expect(t.sent.map((d) => d.event.data.terminationReason)).toEqual(['SUBSCRIPTION_DELETED']);
    await expect(t.service.delete(t.grant(), s.id)).rejects.toThrow(/not found/);
  });
});
