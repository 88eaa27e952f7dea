import { fetchToken } from '../support/oauth';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { SinkServer, startSink } from '../support/sink-server';
import { FAST_WEBHOOKS, SUBS, SWAPPED, SubsHarness, metric, startSubsHarness, subscriptionBody, swapAt, until } from '../support/subscriptions-harness';

/*
 * At least once, nothing lost (CONTRACT §8): a crashed instance's events are delivered by
 * another, a Redis restart keeps the backlog, two instances deliver each event once.
 */

const PHONE = '+255712000001';
const MSISDN = '255712000001';

async function subscribeAt(url: string, token: string, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${url}${SUBS}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await res.json() as { id: string };
  expect(res.status).toBe(201);
  return json.id;
}

function swappedIds(sink: SinkServer, path?: string): string[] {
  return sink.delivered().filter((r) => r.body.type === SWAPPED && (path === undefined || r.path === path)).map((r) => r.body.id);
}

describe('an instance killed before delivering', () => {
  let redis: RedisProcess;
  let sink: SinkServer;
  const procs: ServiceProcess[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    sink = await startSink();
  });
  afterAll(async () => {
    for (const p of procs) p.proc.kill('SIGKILL');
    await sink.close();
    await redis.stop();
  });

  test('when the instance is SIGKILLed after the event was accepted, then a second instance on the same Redis delivers it, with the same id', async () => {
    const env = { ...FAST_WEBHOOKS, REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'kill:' };
    const a = await startServiceProcess(env);
    procs.push(a);
    const token = await fetchToken(a.url, { clientId: 'demo-key', clientSecret: 'demo-secret' });
    await subscribeAt(a.url, token, subscriptionBody(`${sink.url}/crash`, PHONE));
    sink.reply = () => 503;
    expect(await swapAt(a.url, MSISDN)).toBe(200);
    // A tried (and failed) at least once: the event was in its hands when it died.
    await until(() => sink.received.length > 0, 'a first (failed) delivery attempt', 10_000);
    a.proc.kill('SIGKILL');
    await a.exited;
    const failedIds = new Set(sink.received.map((r) => r.body.id));
    expect(failedIds.size).toBe(1);
    expect(sink.delivered()).toHaveLength(0);

    sink.reply = () => 204;
    const b = await startServiceProcess(env);
    procs.push(b);
    const [got] = await sink.waitFor((d) => d.length >= 1, 20_000);
    expect(failedIds.has(got.body.id)).toBe(true);
    expect(got.body.type).toBe(SWAPPED);
  });

  test('when an instance has run since before any webhook work, then it joins the queue and the event outlives the instance that took it', async () => {
    const env = { ...FAST_WEBHOOKS, REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'idle:' };
    const a = await startServiceProcess(env);
    const b = await startServiceProcess(env);
    procs.push(a, b);
    const token = await fetchToken(a.url, { clientId: 'demo-key', clientSecret: 'demo-secret' });
    await subscribeAt(a.url, token, subscriptionBody(`${sink.url}/idle`, PHONE));
    sink.reply = () => 503;
    const before = sink.received.length;
    expect(await swapAt(a.url, MSISDN)).toBe(200);
    await until(() => sink.received.length > before, 'a first (failed) delivery attempt', 10_000);
    const eventId = sink.received[before].body.id;
    a.proc.kill('SIGKILL');
    await a.exited;
    sink.reply = () => 204;
    // b never had an event of its own: it must find the queue in use and start its worker.
    const got = await sink.waitFor((d) => d.some((r) => r.path === '/idle'), 20_000);
    expect(got.find((r) => r.path === '/idle')?.body.id).toBe(eventId);
  });
});

describe('Redis restarted mid-backlog (append-only file)', () => {
  let redis: RedisProcess;
  let h: SubsHarness;
  let sink: SinkServer;

  beforeAll(async () => {
    redis = await startRedis(['--appendonly', 'yes', '--appendfsync', 'always']);
    sink = await startSink();
    h = await startSubsHarness({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'restart:' });
  });
  afterAll(async () => {
    await h.close();
    await sink.close();
    await redis.stop();
  });

  test('when Redis restarts, then every pending event is delivered after the restart and the subscriptions survive it', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const s = await h.subscribe(subscriptionBody(`${sink.url}/s${i}`, PHONE));
      ids.push(s.body.id);
    }
    sink.reply = () => 503;
    for (let i = 0; i < 3; i++) expect(await h.swap(MSISDN)).toBe(200);
    // 12 events now retrying; the sink has seen some of them fail.
    await until(() => sink.received.length >= 6, 'six failed delivery attempts', 15_000);
    const pendingIds = new Set(sink.received.map((r) => r.body.id));
    await redis.stop();
    // Down long enough for the service to notice, whatever the machine's pace.
    await until(async () => ((await (await fetch(`${h.url}/readyz`)).json()) as { store?: string }).store === 'degraded', 'the service seeing Redis gone', 10_000);
    await redis.restart();
    sink.reply = () => 204;
    await sink.waitFor((d) => new Set(d.map((r) => r.body.id)).size >= 12, 25_000);
    const delivered = new Set(swappedIds(sink));
    expect(delivered.size).toBe(12);
    for (const id of pendingIds) expect(delivered.has(id)).toBe(true);
    const list = await h.call(SUBS, undefined, { method: 'GET', token: h.subsToken });
    expect((list.body as { id: string }[]).map((s) => s.id).sort()).toEqual([...ids].sort());
  });
});

describe('a swap reported while Redis is down', () => {
  let redis: RedisProcess;
  let h: SubsHarness;
  let sink: SinkServer;

  beforeAll(async () => {
    redis = await startRedis(['--appendonly', 'yes', '--appendfsync', 'always']);
    sink = await startSink();
    h = await startSubsHarness({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'down:' });
  });
  afterAll(async () => {
    await h.close();
    await sink.close();
    await redis.stop();
  });

  test('when the swap is reported, then it is not acknowledged (503, so the reporter retries), and the retry after Redis returns is delivered', async () => {
    const s = await h.subscribe(subscriptionBody(`${sink.url}/down`, PHONE));
    expect(s.status).toBe(201);
    await redis.stop();
    expect(await h.swap(MSISDN)).toBe(503);
    await redis.restart();
    // The reporter retries until the event is accepted.
    await until(async () => (await h.swap(MSISDN)) === 200, 'the swap accepted once Redis is back', 10_000, 200);
    const [got] = await sink.waitFor((d) => d.length >= 1);
    expect(got.body.data.subscriptionId).toBe(s.body.id);
  });
});

describe('two instances on one Redis', () => {
  let redis: RedisProcess;
  let a: SubsHarness;
  let b: SubsHarness;
  let sink: SinkServer;

  beforeAll(async () => {
    redis = await startRedis();
    sink = await startSink();
    // A 10 s attempt timeout, not the tests' 1 s: a retry after a late 204 (at least once, on a
    // busy machine) would then look like the double delivery this block is here to catch.
    const env = { REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'pair:', WEBHOOK_TIMEOUT_MS: '10000' };
    a = await startSubsHarness(env);
    b = await startSubsHarness(env);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await sink.close();
    await redis.stop();
  });

  test('when either instance takes the swap, then each event is delivered once per subscription', async () => {
    for (let i = 0; i < 3; i++) expect((await a.subscribe(subscriptionBody(`${sink.url}/p${i}`, PHONE))).status).toBe(201);
    // Both instances see the subscriptions a created.
    expect(((await b.call(SUBS, undefined, { method: 'GET', token: b.subsToken })).body as unknown[]).length).toBe(3);
    for (let i = 0; i < 10; i++) expect(await (i % 2 === 0 ? a : b).swap(MSISDN)).toBe(200);
    await sink.waitFor((d) => d.length >= 30);
    // The queue is shared: once nothing waits or is in flight on it, a second copy would have arrived.
    await until(async () => await metric(a.url, 'verify_webhook_queue_pending') === 0, 'webhook queue drained');
    expect(sink.received).toHaveLength(30);
    for (let i = 0; i < 3; i++) {
      const got = swappedIds(sink, `/p${i}`);
      expect(got).toHaveLength(10);
      expect(new Set(got).size).toBe(10);
    }
  });
});

describe('shutdown', () => {
  test('when SIGTERM comes with Redis gone, then the process still exits within seconds', async () => {
    const redis = await startRedis();
    const p = await startServiceProcess({ ...FAST_WEBHOOKS, REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'stop:', SHUTDOWN_GRACE_MS: '1000' });
    try {
      await redis.stop();
      const t0 = Date.now();
      p.proc.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([p.exited, new Promise<string>((r) => { timer = setTimeout(() => r('still running'), 15_000); })]);
      clearTimeout(timer);
      expect(code).toBe(0);
      expect(Date.now() - t0).toBeLessThan(10_000);
    } finally {
      p.proc.kill('SIGKILL');
    }
  });
});
