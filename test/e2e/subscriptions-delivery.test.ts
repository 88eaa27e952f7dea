import { RedisClusterProcess, startRedisCluster } from '../support/redis-cluster';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { SinkServer, startSink } from '../support/sink-server';
import { ENDED, SUBS, SWAPPED, SubsHarness, metric, startSubsHarness, subscriptionBody, until } from '../support/subscriptions-harness';
import { cloudEventErrors } from '../support/camara-spec';

const PHONE = '+255712000001';
const OTHER_PHONE = '+255712000002';
const MSISDN = '255712000001';

function expectValidEvent(body: unknown): void {
  expect(cloudEventErrors(body)).toEqual([]);
}

describe.each(['redis', 'cluster', 'memory'] as const)('subscriptions deliver CloudEvents (state in %s)', (state) => {
  let redis: RedisProcess | RedisClusterProcess | undefined;
  let h: SubsHarness;
  let sinkA: SinkServer;
  let sinkB: SinkServer;
  /** Nothing waiting, delayed or in flight: every event queued so far has reached its sink (or given up). */
  const drained = async () => await metric(h.url, 'verify_webhook_queue_pending') === 0;

  beforeAll(async () => {
    if (state === 'redis') {
      const r = await startRedis();
      redis = r;
      h = await startSubsHarness({ REDIS_URL: r.url, REDIS_KEY_PREFIX: 'deliv:' });
    } else if (state === 'cluster') {
      const c = await startRedisCluster();
      redis = c;
      h = await startSubsHarness({ REDIS_CLUSTER_NODES: c.nodes, REDIS_KEY_PREFIX: 'deliv:' });
    } else {
      h = await startSubsHarness();
    }
  });
  afterAll(async () => {
    await h.close();
    await redis?.stop();
  });
  beforeEach(async () => {
    sinkA = await startSink();
    sinkB = await startSink();
  });
  afterEach(async () => {
    // Leave no subscription behind for the next test, and no event either: the sinks take the
    // subscription-ended events of the deletions, so the next test starts on a drained queue.
    sinkA.reply = () => 204;
    sinkB.reply = () => 204;
    const list = await h.call(SUBS, undefined, { method: 'GET', token: h.subsToken });
    for (const s of list.body as { id: string }[]) await h.call(`${SUBS}/${s.id}`, undefined, { method: 'DELETE', token: h.subsToken });
    await until(drained, 'webhook queue drained after the deletions');
    await sinkA.close();
    await sinkB.close();
  });

  test('when a swap happens, then it reaches every matching subscription once, with its credential, and no other', async () => {
    const a = await h.subscribe(subscriptionBody(`${sinkA.url}/hook`, PHONE, {
      sinkCredential: { credentialType: 'ACCESSTOKEN', accessToken: 'sink-token-a', accessTokenExpiresUtc: '2099-01-01T00:00:00Z', accessTokenType: 'bearer' },
    }));
    expect(a.status).toBe(201);
    expect(a.body.sinkCredential).toBeUndefined();
    expect(a.text).not.toContain('sink-token-a');
    const b = await h.subscribe(subscriptionBody(`${sinkB.url}/hook`, PHONE, {
      sinkCredential: { credentialType: 'PLAIN', identifier: 'bank', secret: 's3cret' },
    }));
    expect(b.status).toBe(201);
    const other = await h.subscribe(subscriptionBody(`${sinkB.url}/other`, OTHER_PHONE));
    expect(other.status).toBe(201);

    expect(await h.swap(MSISDN)).toBe(200);
    const [gotA] = await sinkA.waitFor((d) => d.length >= 1);
    const [gotB] = await sinkB.waitFor((d) => d.length >= 1);
    await until(drained, 'webhook queue drained');
    // Once each: one event per sink, counted by id (a retry delivered twice is the same event).
    expect(sinkA.events().map((r) => r.body.id)).toEqual([gotA.body.id]);
    expect(sinkB.events().map((r) => r.body.id)).toEqual([gotB.body.id]);
    for (const [got, sub] of [[gotA, a], [gotB, b]] as const) {
      expectValidEvent(got.body);
      expect(got.body).toMatchObject({ specversion: '1.0', type: SWAPPED, datacontenttype: 'application/json', data: { phoneNumber: PHONE, subscriptionId: sub.body.id } });
      expect(got.headers['content-type']).toBe('application/cloudevents+json');
      expect(Math.abs(Date.parse(String(got.body.time)) - Date.now())).toBeLessThan(10_000);
    }
    expect(gotA.path).toBe('/hook');
    expect(gotA.headers.authorization).toBe('Bearer sink-token-a');
    expect(gotB.headers.authorization).toBe(`Basic ${Buffer.from('bank:s3cret').toString('base64')}`);
  });

  test('when subscriptionMaxEvents is 1, then the swap is sent, then subscription-ended MAX_EVENTS_REACHED, and the subscription is gone', async () => {
    const s = await h.subscribe(subscriptionBody(sinkA.url, PHONE, {}, { subscriptionMaxEvents: 1 }));
    expect(s.status).toBe(201);
    expect(await h.swap(MSISDN)).toBe(200);
    // Until both have come: a swapped event delivered twice (at least once) is not the ended one.
    await sinkA.waitFor((d) => d.some((r) => r.body.type === SWAPPED) && d.some((r) => r.body.type === ENDED));
    const got = sinkA.events();
    const types = got.map((r) => r.body.type).sort();
    expect(types).toEqual([SWAPPED, ENDED].sort());
    const ended = got.find((r) => r.body.type === ENDED)!;
    expectValidEvent(ended.body);
    expect(ended.body.data).toMatchObject({ terminationReason: 'MAX_EVENTS_REACHED', subscriptionId: s.body.id, phoneNumber: PHONE });
    expect((await h.call(`${SUBS}/${s.body.id}`, undefined, { method: 'GET', token: h.subsToken })).status).toBe(404);
    expect(await h.swap(MSISDN)).toBe(200);
    await until(drained, 'webhook queue drained');
    // Nothing after the end: no new event, whatever was delivered again.
    expect(sinkA.events().map((r) => r.body.id)).toEqual(got.map((r) => r.body.id));
  });

  test('when a subscription is deleted, then it ends with SUBSCRIPTION_DELETED', async () => {
    const s = await h.subscribe(subscriptionBody(sinkA.url, PHONE));
    const del = await h.call(`${SUBS}/${s.body.id}`, undefined, { method: 'DELETE', token: h.subsToken });
    expect(del.status).toBe(204);
    const [got] = await sinkA.waitFor((d) => d.length >= 1);
    expectValidEvent(got.body);
    expect(got.body).toMatchObject({ type: ENDED, data: { terminationReason: 'SUBSCRIPTION_DELETED', subscriptionId: s.body.id } });
    expect((await h.call(`${SUBS}/${s.body.id}`, undefined, { method: 'DELETE', token: h.subsToken })).status).toBe(404);
  });

  test('when a subscription expires, then it ends with SUBSCRIPTION_EXPIRED, without any swap', async () => {
    const expire = new Date(Date.now() + 1500).toISOString();
    const s = await h.subscribe(subscriptionBody(sinkA.url, PHONE, {}, { subscriptionExpireTime: expire }));
    expect(s.status).toBe(201);
    expect(s.body.expiresAt).toBe(expire);
    const [got] = await sinkA.waitFor((d) => d.length >= 1, 10_000);
    expectValidEvent(got.body);
    expect(got.body).toMatchObject({ type: ENDED, data: { terminationReason: 'SUBSCRIPTION_EXPIRED', subscriptionId: s.body.id } });
    expect(got.atMs).toBeGreaterThanOrEqual(Date.parse(expire));
    expect(await h.swap(MSISDN)).toBe(200);
    await until(drained, 'webhook queue drained');
    expect(sinkA.events().map((r) => r.body.id)).toEqual([got.body.id]);
  });

  test('when the sink token runs out, then the subscription ends a minute before, with ACCESS_TOKEN_EXPIRED sent with that token', async () => {
    // Expiring in 61.5 s: the subscription ends 60 s earlier, 1.5 s from now, while the token still works.
    const tokenExpires = new Date(Date.now() + 61_500).toISOString();
    const s = await h.subscribe(subscriptionBody(sinkA.url, PHONE, {
      sinkCredential: { credentialType: 'ACCESSTOKEN', accessToken: 'short-lived', accessTokenExpiresUtc: tokenExpires, accessTokenType: 'bearer' },
    }));
    expect(s.status).toBe(201);
    expect(Date.parse(String(s.body.expiresAt))).toBe(Date.parse(tokenExpires) - 60_000);
    const [got] = await sinkA.waitFor((d) => d.length >= 1, 10_000);
    expectValidEvent(got.body);
    expect(got.body).toMatchObject({ type: ENDED, data: { terminationReason: 'ACCESS_TOKEN_EXPIRED', subscriptionId: s.body.id } });
    expect(got.headers.authorization).toBe('Bearer short-lived');
    expect(got.atMs).toBeLessThan(Date.parse(tokenExpires));
    expect((await h.call(`${SUBS}/${s.body.id}`, undefined, { method: 'GET', token: h.subsToken })).status).toBe(404);
  });

  test('when a sink fails 3 times then succeeds, then it gets the event, every attempt with the same id, backing off', async () => {
    sinkA.reply = (_r, n) => (n < 3 ? 503 : 204);
    await h.subscribe(subscriptionBody(sinkA.url, PHONE));
    expect(await h.swap(MSISDN)).toBe(200);
    await sinkA.waitFor((d) => d.length >= 1);
    expect(sinkA.received.map((r) => r.status)).toEqual([503, 503, 503, 204]);
    expect(new Set(sinkA.received.map((r) => r.body.id)).size).toBe(1);
    const gaps = sinkA.received.slice(1).map((r, i) => r.atMs - sinkA.received[i].atMs);
    // base 100 ms doubling, equal jitter: at least 50, 100, 200 ms.
    expect(gaps[0]).toBeGreaterThanOrEqual(45);
    expect(gaps[1]).toBeGreaterThanOrEqual(95);
    expect(gaps[2]).toBeGreaterThanOrEqual(195);
  });

  test('when a sink hangs, then deliveries to another sink are not delayed', async () => {
    sinkA.reply = () => 'hang';
    await h.subscribe(subscriptionBody(sinkA.url, PHONE));
    await h.subscribe(subscriptionBody(`${sinkA.url}/second`, PHONE));
    await h.subscribe(subscriptionBody(sinkB.url, OTHER_PHONE));
    // Many events for the hung sink first, then one for the healthy sink.
    for (let i = 0; i < 10; i++) expect(await h.swap(MSISDN)).toBe(200);
    const t0 = Date.now();
    expect(await h.swap('255712000002')).toBe(200);
    await sinkB.waitFor((d) => d.length >= 1, 3000);
    expect(Date.now() - t0).toBeLessThan(800);
  });
});
