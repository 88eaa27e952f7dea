import { Redis } from 'ioredis';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { SinkServer, startSink } from '../support/sink-server';
import {
  ENDED, EVENTS_TOKEN, SUBS, SWAPPED, SubsHarness, metric, startSubsHarness, subscriptionBody, until,
} from '../support/subscriptions-harness';

/*
 * A swap report or a deletion answered 503 (the webhook queue refused the events) and retried
 * queues each event once, under the same CloudEvent id: the events are queued before the
 * subscription's state moves, under ids derived from the subscription and the swap.
 */

const PHONE = '+255712000001';
const MSISDN = '255712000001';
const PREFIX = 'idem:';
/** BullMQ's job counter: every add INCRs it, so a non-number there makes every add fail. */
const QUEUE_ID_KEY = `{${PREFIX}webhooks}:webhooks:id`;

async function report(url: string, body: Record<string, unknown>): Promise<number> {
  const res = await fetch(`${url}/internal/events/sim-swap`, {
    method: 'POST', headers: { authorization: `Bearer ${EVENTS_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  await res.text();
  return res.status;
}

describe('retried swap reports and deletions (state in Redis)', () => {
  let redis: RedisProcess;
  let raw: Redis;
  let h: SubsHarness;
  let sink: SinkServer;

  beforeAll(async () => {
    redis = await startRedis();
    raw = new Redis(redis.url);
    // A 10 s attempt timeout, not the tests' 1 s: a retry after a late 204 (at least once, on a
    // busy machine) would then look like the second copy of an event these tests are here to catch.
    h = await startSubsHarness({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: PREFIX, WEBHOOK_TIMEOUT_MS: '10000' });
  });
  afterAll(async () => {
    await h.close();
    raw.disconnect();
    await redis.stop();
  });
  beforeEach(async () => { sink = await startSink(); });
  const queueEmpty = async () => await metric(h.url, 'verify_webhook_queue_pending') === 0;

  afterEach(async () => {
    await raw.del(QUEUE_ID_KEY);
    // Their subscription-ended events reach this test's sink, not the next one's.
    const list = await h.call(SUBS, undefined, { method: 'GET', token: h.subsToken });
    for (const s of list.body as { id: string }[]) await h.call(`${SUBS}/${s.id}`, undefined, { method: 'DELETE', token: h.subsToken });
    await until(queueEmpty, 'webhook queue drained');
    await sink.close();
  });

  test('when a swap for a subscription with maxEvents 1 is answered 503 and retried, then its swapped and ended events are both delivered, once each', async () => {
    const s = await h.subscribe(subscriptionBody(sink.url, PHONE, {}, { subscriptionMaxEvents: 1 }));
    expect(s.status).toBe(201);
    await raw.set(QUEUE_ID_KEY, 'not-a-number');
    expect(await report(h.url, { msisdn: MSISDN })).toBe(503);
    await raw.del(QUEUE_ID_KEY);
    expect(await report(h.url, { msisdn: MSISDN })).toBe(200);

    await sink.waitFor((d) => d.some((r) => r.body.type === SWAPPED) && d.some((r) => r.body.type === ENDED));
    await until(queueEmpty, 'webhook queue drained');
    // Once each, copies included: an event queued twice under its id would arrive twice.
    const got = sink.delivered();
    expect(got.map((r) => r.body.type)).toEqual([SWAPPED, ENDED]);
    expect(got[1].body.data).toMatchObject({ terminationReason: 'MAX_EVENTS_REACHED', subscriptionId: s.body.id });
  });

  test('when a deletion is answered 503 and retried, then the retry is 204 and SUBSCRIPTION_DELETED is delivered once', async () => {
    const s = await h.subscribe(subscriptionBody(sink.url, PHONE));
    await raw.set(QUEUE_ID_KEY, 'not-a-number');
    const first = await h.call(`${SUBS}/${s.body.id}`, undefined, { method: 'DELETE', token: h.subsToken });
    expect(first.status).toBe(503);
    await raw.del(QUEUE_ID_KEY);
    const retry = await h.call(`${SUBS}/${s.body.id}`, undefined, { method: 'DELETE', token: h.subsToken });
    expect(retry.status).toBe(204);

    const [got] = await sink.waitFor((d) => d.length >= 1);
    await until(queueEmpty, 'webhook queue drained');
    expect(got.body).toMatchObject({ type: ENDED, data: { terminationReason: 'SUBSCRIPTION_DELETED', subscriptionId: s.body.id } });
    expect(sink.received.map((r) => r.body.id)).toEqual([got.body.id]);
  });

  test('when the reporter sends the same eventId twice, then one swapped event is delivered; another eventId is another event', async () => {
    await h.subscribe(subscriptionBody(sink.url, PHONE));
    expect(await report(h.url, { msisdn: MSISDN, eventId: 'sim-mgmt-42' })).toBe(200);
    expect(await report(h.url, { msisdn: MSISDN, eventId: 'sim-mgmt-42' })).toBe(200);
    expect(await report(h.url, { msisdn: MSISDN, eventId: 'sim-mgmt-43' })).toBe(200);

    await sink.waitFor((d) => d.length >= 2);
    await until(queueEmpty, 'webhook queue drained');
    // Two deliveries of two events: sim-mgmt-42's once, however often it was reported, and sim-mgmt-43's.
    expect(sink.received.map((r) => r.body.type)).toEqual([SWAPPED, SWAPPED]);
    expect(new Set(sink.received.map((r) => r.body.id)).size).toBe(2);
  });

  test('when the eventId is not a plain token, then the report is 400 and nothing is queued', async () => {
    await h.subscribe(subscriptionBody(sink.url, PHONE));
    expect(await report(h.url, { msisdn: MSISDN, eventId: 'a b' })).toBe(400);
    expect(await report(h.url, { msisdn: MSISDN, eventId: 42 })).toBe(400);
    expect(await report(h.url, { msisdn: MSISDN, eventId: 'x'.repeat(129) })).toBe(400);
    await until(queueEmpty, 'webhook queue drained');
    expect(sink.received).toHaveLength(0);
  });
});
