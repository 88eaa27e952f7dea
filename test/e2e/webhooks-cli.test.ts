import { runCli } from '../../src/cli/main';
import { CliIo } from '../../src/cli/io';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { SinkServer, startSink } from '../support/sink-server';
import { SubsHarness, metric, startSubsHarness, subscriptionBody, until } from '../support/subscriptions-harness';

function cliIo(env: Record<string, string>): CliIo & { outLines: string[]; errLines: string[] } {
  const outLines: string[] = [];
  const errLines: string[] = [];
  return { outLines, errLines, out: (l) => outLines.push(l), err: (l) => errLines.push(l), env };
}

describe('webhooks dead letters: listed and replayed from the CLI', () => {
  let redis: RedisProcess;
  let h: SubsHarness;
  let sink: SinkServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    redis = await startRedis();
    sink = await startSink();
    env = { REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'dlq:' };
    h = await startSubsHarness({ ...env, WEBHOOK_RETRY_WINDOW_S: '1' });
  });
  afterAll(async () => {
    await h.close();
    await sink.close();
    await redis.stop();
  });

  test("when an event's window runs out, then it is a dead letter, and replay delivers it with the same id", async () => {
    sink.reply = () => 500;
    const s = await h.subscribe(subscriptionBody(`${sink.url}/dlq?token=secret-in-query`, '+255712000001'));
    expect(s.status).toBe(201);
    expect(await h.swap('255712000001')).toBe(200);
    let letters: { jobId: string; eventId: string; subscriptionId: string; sinkOrigin: string; attempts: number }[] = [];
    await until(async () => {
      const io = cliIo(env);
      expect(await runCli(['webhooks', 'dead-letters', '--json'], io)).toBe(0);
      letters = JSON.parse(io.outLines[0]) as typeof letters;
      return letters.length > 0;
    }, 'a dead letter listed', 10_000, 200);
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({ subscriptionId: s.body.id, sinkOrigin: sink.url });
    expect(letters[0].attempts).toBeGreaterThan(1);
    const attempts = sink.received.length;
    // A dead letter is not pending: once nothing is, no attempt can still come.
    await until(async () => await metric(h.url, 'verify_webhook_queue_pending') === 0, 'webhook queue drained');
    expect(sink.received.length).toBe(attempts); // dead: no more attempts
    const eventId = sink.received[0].body.id;
    expect(letters[0].eventId).toBe(eventId);

    const text = cliIo(env);
    expect(await runCli(['webhooks', 'dead-letters'], text)).toBe(0);
    expect(text.outLines.join('\n')).not.toContain('secret-in-query');

    const metrics = await (await fetch(`${h.url}/metrics`)).text();
    expect(metrics).toMatch(/verify_webhook_dead_letters 1\b/);
    expect(metrics).toMatch(/verify_webhook_deliveries_total\{outcome="dead_lettered"\} 1\b/);

    sink.reply = () => 204;
    const replay = cliIo(env);
    expect(await runCli(['webhooks', 'replay', '--all'], replay)).toBe(0);
    expect(replay.outLines[0]).toBe(`replayed 1: ${letters[0].jobId}`);
    const [got] = await sink.waitFor((d) => d.length >= 1);
    expect(got.body.id).toBe(eventId);
    const after = cliIo(env);
    expect(await runCli(['webhooks', 'dead-letters', '--json'], after)).toBe(0);
    expect(JSON.parse(after.outLines[0])).toEqual([]);
    expect(await runCli(['webhooks', 'replay', 'no-such-job'], cliIo(env))).toBe(1);
  });

  test('when the usage is wrong, then exit 2; when there is no Redis, then each command says it needs Redis, which settings, and where dead letters are', async () => {
    for (const argv of [['webhooks'], ['webhooks', 'list'], ['webhooks', 'replay'], ['webhooks', 'replay', 'x', '--all'], ['webhooks', 'dead-letters', '--bogus'], ['webhooks', 'dead-letters', 'x']]) {
      const io = cliIo(env);
      expect(await runCli(argv, io)).toBe(2);
      expect(io.errLines.join('\n')).toMatch(/usage|Unknown option/i);
    }
    for (const argv of [['webhooks', 'dead-letters'], ['webhooks', 'replay', '--all']]) {
      const io = cliIo({});
      expect(await runCli(argv, io)).toBe(1);
      expect(io.errLines.join('\n')).toBe(`verify-customer: webhooks ${argv[1] ?? ''} needs Redis: set REDIS_URL or REDIS_CLUSTER_NODES (and REDIS_KEY_PREFIX) as the service has them. ` +
        'Without Redis, dead letters stay inside the service process and only the metric verify_webhook_dead_letters counts them.');
    }
  });
});
