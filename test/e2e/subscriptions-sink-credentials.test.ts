import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { WEBHOOK_QUEUE, queuePrefix } from '../../src/subscriptions/delivery/webhook-queue';
import { runCli } from '../../src/cli/main';
import { CliIo } from '../../src/cli/io';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { fetchToken } from '../support/oauth';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { SinkServer, startSink } from '../support/sink-server';
import { FAST_WEBHOOKS, SUBS, SWAPPED, SubsHarness, startSubsHarness, subscriptionBody, swapAt } from '../support/subscriptions-harness';
import { until } from '../support/until';

/*
 * Sink credentials and times are checked where they enter (400 INVALID_ARGUMENT, nothing
 * stored), a credential that still cannot be sent is a counted dead letter (never a crash, never
 * a silent retry), and on Redis no credential is ever stored in plaintext.
 */

const PHONE = '+255712000001';
const MSISDN = '255712000001';
const FUTURE = '2099-01-01T00:00:00Z';

function bearer(accessToken: string): Record<string, unknown> {
  return { sinkCredential: { credentialType: 'ACCESSTOKEN', accessToken, accessTokenExpiresUtc: FUTURE, accessTokenType: 'bearer' } };
}
function plain(identifier: string, secret: string): Record<string, unknown> {
  return { sinkCredential: { credentialType: 'PLAIN', identifier, secret } };
}
function cliIo(env: Record<string, string>): CliIo & { outLines: string[] } {
  const outLines: string[] = [];
  return { outLines, out: (l) => outLines.push(l), err: () => undefined, env };
}
/** The first defined value probe gives (test/support/until.ts polls for it). */
async function valueOf<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  let v: T | undefined;
  await until(async () => (v = await probe()) !== undefined, what, timeoutMs, 50);
  return v as T;
}
async function metric(url: string, re: RegExp): Promise<string | undefined> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return re.exec(text)?.[0];
}

describe.each(['memory', 'redis'] as const)('sink credentials and times are checked at creation (state in %s)', (state) => {
  let redis: RedisProcess | undefined;
  let h: SubsHarness;
  let sink: SinkServer;

  beforeAll(async () => {
    sink = await startSink();
    if (state === 'redis') redis = await startRedis();
    h = await startSubsHarness(redis ? { REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'check:' } : {});
  });
  afterAll(async () => {
    await h.close();
    await sink.close();
    await redis?.stop();
  });

  async function stored(): Promise<number> {
    return ((await h.call(SUBS, undefined, { method: 'GET', token: h.subsToken })).body as unknown[]).length;
  }

  test('when a credential holds what a header cannot carry, or a PLAIN identifier holds ":", then 400 INVALID_ARGUMENT and nothing is stored', async () => {
    const bad = [
      bearer('tok\u0100en'), bearer('tok\u0007en'), bearer('tok\u0000'), bearer('tok en'), bearer('tok\ten'), bearer('tök'), bearer('a=b'), bearer('tok\r\nX-Injected: 1'),
      plain('bank:admin', 'secret'), plain('bank\u0001', 'secret'), plain('bank', 'sec\u0100ret'), plain('bank', 'sec\u007fret'), plain('bank', 'sec\u0085ret'), plain('ba\u2028nk', 'secret'),
    ];
    for (const extra of bad) {
      const r = await h.subscribe(subscriptionBody(`${sink.url}/x`, PHONE, extra));
      expect({ extra, status: r.status, body: r.body }).toMatchObject({ status: 400, body: { status: 400, code: 'INVALID_ARGUMENT' } });
    }
    expect(await stored()).toBe(0);
    // What the rules still allow: a token68 token, Latin-1 text in PLAIN.
    for (const extra of [bearer('eyJhbGciOi.J9-_~+/x=='), plain('bänk user', 'sécret: with colon')]) {
      const r = await h.subscribe(subscriptionBody(`${sink.url}/x`, PHONE, extra));
      expect(r.status).toBe(201);
      await h.call(`${SUBS}/${r.body.id}`, undefined, { method: 'DELETE', token: h.subsToken });
    }
  });

  test('when subscriptionExpireTime or accessTokenExpiresUtc is not a real instant (second 60, month 13, 30 February), then 400 INVALID_ARGUMENT and nothing is stored', async () => {
    for (const t of ['2099-12-31T23:59:60Z', '2099-13-01T00:00:00Z', '2099-02-30T00:00:00Z', '2099-06-30T24:00:00Z', '2099-06-30T12:00:00+24:00']) {
      for (const body of [
        subscriptionBody(`${sink.url}/x`, PHONE, {}, { subscriptionExpireTime: t }),
        subscriptionBody(`${sink.url}/x`, PHONE, { sinkCredential: { credentialType: 'ACCESSTOKEN', accessToken: 't', accessTokenExpiresUtc: t, accessTokenType: 'bearer' } }),
      ]) {
        const r = await h.subscribe(body);
        expect({ t, status: r.status, body: r.body }).toMatchObject({ status: 400, body: { status: 400, code: 'INVALID_ARGUMENT' } });
      }
    }
    expect(await stored()).toBe(0);
  });
});

describe('sink credentials on Redis', () => {
  let redis: RedisProcess;
  let h: SubsHarness;
  let sink: SinkServer;
  const env = { REDIS_KEY_PREFIX: 'seal:' } as Record<string, string>;

  beforeAll(async () => {
    redis = await startRedis();
    sink = await startSink();
    env.REDIS_URL = redis.url;
    h = await startSubsHarness({ ...env, WEBHOOK_RETRY_WINDOW_S: '1', WEBHOOK_DEAD_LETTER_RETENTION_S: '3600', WEBHOOK_DEAD_LETTER_MAX: '50' });
  });
  afterAll(async () => {
    await h.close();
    await sink.close();
    await redis.stop();
  });

  async function everyValue(client: Redis): Promise<string> {
    const out: string[] = [];
    for (const key of await client.keys('*')) {
      const type = await client.type(key);
      out.push(key);
      if (type === 'string') out.push(String(await client.get(key)));
      else if (type === 'hash') out.push(JSON.stringify(await client.hgetall(key)));
      else if (type === 'list') out.push(JSON.stringify(await client.lrange(key, 0, -1)));
      else if (type === 'set') out.push(JSON.stringify(await client.smembers(key)));
      else if (type === 'zset') out.push(JSON.stringify(await client.zrange(key, 0, -1)));
      else if (type === 'stream') out.push(JSON.stringify(await client.xrange(key, '-', '+')));
      else out.push(`(${type})`);
    }
    return out.join('\n');
  }

  test('when subscriptions with credentials are stored, delivered and dead-lettered, then no Redis key or value holds a credential, and the sinks still get theirs', async () => {
    const token = 'sink-token-7f3a9c';
    const [ident, secret] = ['bank-ident-41', 'plain-secret-77'];
    const basic = Buffer.from(`${ident}:${secret}`).toString('base64');
    sink.reply = (r) => (r.path === '/dead' ? 500 : 204);
    expect((await h.subscribe(subscriptionBody(`${sink.url}/ok`, PHONE, bearer(token)))).status).toBe(201);
    // The last allowed event carries its subscription-ended follow-up, with the same credential, inside the job.
    expect((await h.subscribe(subscriptionBody(`${sink.url}/dead`, PHONE, plain(ident, secret), { subscriptionMaxEvents: 1 }))).status).toBe(201);
    expect(await h.swap(MSISDN)).toBe(200);
    const [ok] = await sink.waitFor((d) => d.some((r) => r.path === '/ok'));
    expect(ok.headers.authorization).toBe(`Bearer ${token}`);
    const letters = await valueOf('a dead letter', async () => {
      const io = cliIo(env);
      expect(await runCli(['webhooks', 'dead-letters', '--json'], io)).toBe(0);
      const list = JSON.parse(io.outLines[0]) as { jobId: string }[];
      return list.length > 0 ? list : undefined;
    });
    expect(sink.received.find((r) => r.path === '/dead')?.headers.authorization).toBe(`Basic ${basic}`);

    const client = new Redis(redis.url);
    try {
      const dump = await everyValue(client);
      expect(dump).toContain('seal:{subs}:sub:');
      expect(dump).toContain(ok.body.id);
      for (const s of [token, ident, secret, basic]) expect(dump).not.toContain(s);
    } finally {
      client.disconnect();
    }

    // Dead letters are kept a bounded time and number, not forever.
    const queue = new Queue(WEBHOOK_QUEUE, { connection: { url: redis.url }, prefix: queuePrefix('seal:') });
    try {
      const job = await queue.getJob(letters[0].jobId);
      expect(job?.opts.removeOnFail).toEqual({ age: 3600, count: 50 });
    } finally {
      await queue.close();
    }

    // The replayed dead letter still opens its credential.
    sink.reply = () => 204;
    expect(await runCli(['webhooks', 'replay', '--all'], cliIo(env))).toBe(0);
    const got = await sink.waitFor((d) => d.some((r) => r.path === '/dead'));
    expect(got.find((r) => r.path === '/dead')?.headers.authorization).toBe(`Basic ${basic}`);
  });

  test('when a stored credential cannot be put in a header (stored before the check), then its event is dead-lettered and counted at once, not retried silently', async () => {
    const other = await startSubsHarness({ ...env, REDIS_KEY_PREFIX: 'legacy:' });
    const client = new Redis(redis.url);
    try {
      const s = await other.subscribe(subscriptionBody(`${sink.url}/legacy`, '+255712000002', bearer('good-token')));
      expect(s.status).toBe(201);
      const key = `legacy:{subs}:sub:${s.body.id}`;
      const record = JSON.parse(String(await client.get(key))) as Record<string, unknown>;
      await client.set(key, JSON.stringify({ ...record, credential: { credentialType: 'ACCESSTOKEN', accessToken: 'bad\u0100token', accessTokenExpiresUtc: FUTURE, accessTokenType: 'bearer' } }));
      expect(await other.swap('255712000002')).toBe(200);
      await valueOf('dead_lettered counted', () => metric(other.url, /verify_webhook_deliveries_total\{outcome="dead_lettered"\} 1\b/));
      expect(await metric(other.url, /verify_webhook_attempts_total\{outcome="refused"\} 1\b/)).toBeDefined();
      expect(sink.received.filter((r) => r.path === '/legacy')).toEqual([]);
    } finally {
      client.disconnect();
      await other.close();
    }
  });
});

describe('the embedded default (state in memory) as a real process', () => {
  let svc: ServiceProcess | undefined;
  let sink: SinkServer;

  beforeAll(async () => { sink = await startSink(); });
  afterAll(async () => {
    svc?.proc.kill('SIGKILL');
    await sink.close();
  });

  test('when partners send sink tokens a header cannot carry, then they get 400 and the process stays up and delivers', async () => {
    svc = await startServiceProcess({ ...FAST_WEBHOOKS });
    const token = await fetchToken(svc.url, { clientId: 'demo-key', clientSecret: 'demo-secret' });
    const subscribe = async (body: Record<string, unknown>) => {
      const res = await fetch(`${svc?.url}${SUBS}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await res.text();
      return res.status;
    };
    expect(await subscribe(subscriptionBody(`${sink.url}/bad1`, PHONE, bearer('tok\u0100en')))).toBe(400);
    expect(await subscribe(subscriptionBody(`${sink.url}/bad2`, PHONE, bearer('tok\u0007en')))).toBe(400);
    expect(await subscribe(subscriptionBody(`${sink.url}/good`, PHONE, bearer('good-token')))).toBe(201);
    expect(await swapAt(svc.url, MSISDN)).toBe(200);
    const [got] = await sink.waitFor((d) => d.some((r) => r.path === '/good'));
    expect(got.body.type).toBe(SWAPPED);
    // Another round trip after the deliveries: the process is still there.
    expect((await fetch(`${svc.url}/healthz`)).status).toBe(200);
    expect(svc.proc.exitCode).toBeNull();
    expect(svc.output()).not.toMatch(/ERR_INVALID_CHAR|unhandled/i);
  });
});
