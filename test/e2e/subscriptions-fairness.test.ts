import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { InFlight, SinkServer, startSink } from '../support/sink-server';
import { until } from '../support/until';
import { ENDED, SUBS, SWAPPED, SubsHarness, startSubsHarness, subscriptionBody } from '../support/subscriptions-harness';

/*
 * Delivery limits and order: one partner's hanging sinks never hold every delivery slot, the
 * in-memory delivery keeps to WEBHOOK_CONCURRENCY, and a subscription's subscription-ended
 * never reaches its sink before its last swapped event.
 */

const PHONE = '+255712000001';
const OTHER_PHONE = '+255712000002';
const MSISDN = '255712000001';

describe.each(['redis', 'memory'] as const)('delivery limits and order (state in %s)', (state) => {
  let redis: RedisProcess | undefined;
  let h: SubsHarness;
  let otherToken: string;
  const sinks: SinkServer[] = [];

  beforeAll(async () => {
    // 4 slots in all, 2 per sink origin, 2 per partner; an attempt hangs for up to 5 s.
    const env = { WEBHOOK_CONCURRENCY: '4', WEBHOOK_SINK_CONCURRENCY: '2', WEBHOOK_PARTNER_CONCURRENCY: '2', WEBHOOK_TIMEOUT_MS: '5000' };
    if (state === 'redis') {
      redis = await startRedis();
      h = await startSubsHarness({ ...env, REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'fair:' });
    } else {
      h = await startSubsHarness(env);
    }
    otherToken = await h.tokens.twoLegged({ clientId: 'demo-hmac-key', clientSecret: 'demo-hmac-secret' });
  });
  afterAll(async () => {
    await h.close();
    await redis?.stop();
  });
  afterEach(async () => {
    for (const s of sinks.splice(0)) await s.close();
    for (const token of [h.subsToken, otherToken]) {
      const list = await h.call(SUBS, undefined, { method: 'GET', token });
      for (const s of list.body as { id: string }[]) await h.call(`${SUBS}/${s.id}`, undefined, { method: 'DELETE', token });
    }
  });

  async function sink(inFlight?: InFlight): Promise<SinkServer> {
    const s = await startSink(inFlight);
    sinks.push(s);
    return s;
  }

  test('when one partner\'s events hang at 3 sinks, then another partner\'s event is delivered at once', async () => {
    for (let i = 0; i < 3; i++) {
      const hung = await sink();
      hung.reply = () => 'hang';
      for (const path of ['/a', '/b']) expect((await h.subscribe(subscriptionBody(`${hung.url}${path}`, PHONE))).status).toBe(201);
    }
    const healthy = await sink();
    expect((await h.subscribe(subscriptionBody(healthy.url, OTHER_PHONE), otherToken)).status).toBe(201);

    for (let i = 0; i < 3; i++) expect(await h.swap(MSISDN)).toBe(200);
    // The hung partner holds both its slots before the other partner's event. Which of its three
    // sinks gets the first attempts is the delivery queue's choice, so all three are counted.
    const hungSinks = sinks.slice(0, 3);
    await until(() => hungSinks.reduce((n, s) => n + s.received.length, 0) >= 2, 'the hung partner\'s two attempts in flight', 5000);
    const t0 = Date.now();
    expect(await h.swap('255712000002')).toBe(200);
    await healthy.waitFor((d) => d.length >= 1, 10_000);
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  test('when subscriptions with maxEvents 1 at 8 sinks see a swap whose first attempt fails, then no sink gets subscription-ended before swapped', async () => {
    const subs: { sink: SinkServer; path: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const s = await sink();
      // Each swapped event's first attempt fails; the retry (after backoff) succeeds.
      const seen = new Set<string>();
      s.reply = (r) => {
        if (r.body.type !== SWAPPED || seen.has(`${r.path} ${r.body.id}`)) return 204;
        seen.add(`${r.path} ${r.body.id}`);
        return 503;
      };
      for (const path of ['/a', '/b']) {
        expect((await h.subscribe(subscriptionBody(`${s.url}${path}`, PHONE, {}, { subscriptionMaxEvents: 1 }))).status).toBe(201);
        subs.push({ sink: s, path });
      }
    }
    expect(await h.swap(MSISDN)).toBe(200);
    for (const { sink: s, path } of subs) {
      // Until subscription-ended arrives: delivery is at least once, so a retry whose 204 came
      // after the attempt's timeout (a busy machine) is delivered twice, and "two delivered"
      // could be those two before the ended one.
      await s.waitFor((d) => d.some((r) => r.path === path && r.body.type === ENDED), 15_000);
      const here = s.received.filter((r) => r.path === path);
      const swappedAt = here.findIndex((r) => r.body.type === SWAPPED && r.status === 204);
      const endedAt = here.findIndex((r) => r.body.type === ENDED);
      const seen = here.map((r) => `${r.body.type === ENDED ? 'ended' : 'swapped'} ${r.status}`);
      expect({ seen, swappedFirst: swappedAt >= 0 && endedAt > swappedAt }).toEqual({ seen, swappedFirst: true });
    }
  });
});

describe.each(['redis', 'memory'] as const)('the overall delivery limit (state in %s)', (state) => {
  let redis: RedisProcess | undefined;
  let h: SubsHarness;
  const sinks: SinkServer[] = [];

  beforeAll(async () => {
    // 4 slots in all; the sink and partner limits above that would let 20 go at once.
    const env = { WEBHOOK_CONCURRENCY: '4', WEBHOOK_SINK_CONCURRENCY: '2', WEBHOOK_PARTNER_CONCURRENCY: '4', WEBHOOK_TIMEOUT_MS: '1000' };
    if (state === 'redis') {
      redis = await startRedis();
      h = await startSubsHarness({ ...env, REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'cap:' });
    } else {
      h = await startSubsHarness(env);
    }
  });
  afterAll(async () => {
    for (const s of sinks.splice(0)) await s.close();
    await h.close();
    await redis?.stop();
  });

  async function sink(inFlight?: InFlight): Promise<SinkServer> {
    const s = await startSink(inFlight);
    sinks.push(s);
    return s;
  }

  test('when 20 events hang at 10 sinks, then no more than WEBHOOK_CONCURRENCY attempts are ever in flight', async () => {
    const inFlight: InFlight = { now: 0, max: 0 };
    const hung: SinkServer[] = [];
    for (let i = 0; i < 10; i++) {
      const s = await sink(inFlight);
      s.reply = () => 'hang';
      hung.push(s);
      for (const path of ['/a', '/b']) expect((await h.subscribe(subscriptionBody(`${s.url}${path}`, PHONE))).status).toBe(201);
    }
    expect(await h.swap(MSISDN)).toBe(200);
    // Until the first attempts time out (1 s) and others start: every slot has been taken by then.
    await until(() => hung.reduce((n, s) => n + s.received.length, 0) >= 6, 'six attempts at the hung sinks', 20_000);
    // Every slot was used, and never more.
    expect(inFlight.max).toBe(4);
  }, 30_000);

});
