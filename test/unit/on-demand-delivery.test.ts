import { OnDemandDelivery } from '../../src/subscriptions/delivery/on-demand-delivery';
import { UpstreamUnavailableError } from '../../src/errors/domain-errors';
import { EventDelivery } from '../../src/subscriptions/ports/event-delivery';
import { WebhookMetrics, WebhookQueueStats } from '../../src/subscriptions/ports/webhook-metrics';
import { Delivery } from '../../src/subscriptions/domain/subscription';
import { createLogger } from '../../src/observability/logger';

/** The durable delivery as the on-demand wrapper sees it: what it was given, whether it was closed. */
class FakeDelivery implements EventDelivery {
  readonly enqueued: Delivery[][] = [];
  closed = false;
  enqueue(deliveries: Delivery[]): Promise<void> {
    this.enqueued.push(deliveries);
    return Promise.resolve();
  }
  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

function delivery(id: string): Delivery {
  return {
    subscriptionId: 's1', partner: 'p', sink: 'https://sink.example/hook',
    event: { specversion: '1.0', id, source: '/s/s1', type: 'org.camaraproject.sim-swap-subscriptions.v0.swapped', time: new Date(0).toISOString(), datacontenttype: 'application/json', data: {} },
  };
}

// Fake timers (Date.now too): the checks every 10 ms and the retry interval run on jest's clock,
// so a test waits for a condition or an interval without sleeping in real time. setImmediate stays
// real: the fake durable delivery takes one turn of the event loop to start, so events can arrive
// while it starts and close() can wait for it without a test moving the clock.
const elapse = (ms: number) => jest.advanceTimersByTimeAsync(ms);

/** Moves the fake clock a millisecond at a time until cond holds, up to ms. */
async function until(cond: () => boolean, ms = 2000): Promise<void> {
  for (let waited = 0; !cond(); waited++) {
    if (waited > ms) throw new Error('condition not met');
    await elapse(1);
  }
}

function setup(opts: { inUse?: () => Promise<boolean>; start?: () => Promise<EventDelivery> } = {}) {
  const real = new FakeDelivery();
  let starts = 0;
  let checks = 0;
  let used = false;
  let source: (() => Promise<WebhookQueueStats>) | undefined;
  const metrics: WebhookMetrics = { webhookAttempt() {}, webhookDelivery() {}, trackWebhookQueue(s) { source = s; } };
  const d = new OnDemandDelivery({
    start: opts.start ?? (async () => { starts++; await new Promise((r) => setImmediate(r)); return real; }),
    queueInUse: async () => { checks++; return opts.inUse ? opts.inUse() : used; },
    checkEveryMs: 10,
    metrics,
    logger: createLogger('silent'),
  });
  return {
    d, real, metrics,
    starts: () => starts, checks: () => checks,
    useQueue: () => { used = true; },
    stats: () => (source as () => Promise<WebhookQueueStats>)(),
  };
}

describe('webhook delivery started on demand', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  test('when the queue is unused and nothing is sent, then the durable delivery is never started and the gauges read 0', async () => {
    const t = setup();
    await until(() => t.checks() >= 3);
    expect(t.starts()).toBe(0);
    expect(t.d.isStarted).toBe(false);
    expect(await t.stats()).toEqual({ pending: 0, oldestPendingAgeS: 0, deadLetters: 0 });
    await t.d.close();
    expect(t.starts()).toBe(0);
  });

  test('when the first events arrive, then delivery starts once, however many arrive while it starts, and each reaches it in order', async () => {
    const t = setup();
    await Promise.all([t.d.enqueue([delivery('e1')]), t.d.enqueue([delivery('e2')]), t.d.enqueue([delivery('e3')])]);
    expect(t.starts()).toBe(1);
    expect(t.real.enqueued.map((b) => b[0].event.id)).toEqual(['e1', 'e2', 'e3']);
    await t.d.close();
    expect(t.real.closed).toBe(true);
  });

  test('when another instance has used the queue, then it is joined at the next check, with no event of its own', async () => {
    const t = setup();
    await until(() => t.checks() >= 2);
    expect(t.d.isStarted).toBe(false);
    t.useQueue();
    await until(() => t.d.isStarted);
    expect(t.starts()).toBe(1);
    const checks = t.checks();
    await elapse(40);
    expect(t.checks()).toBe(checks); // started: no more checks
    await t.d.close();
    expect(t.real.closed).toBe(true);
  });

  test('when the queue is already in use at start, then it is joined at once', async () => {
    const t = setup({ inUse: () => Promise.resolve(true) });
    await until(() => t.d.isStarted);
    expect(t.checks()).toBe(1);
    await t.d.close();
  });

  test('when a check fails (Redis away), then it is asked again and the queue in use is then joined', async () => {
    let n = 0;
    const t = setup({ inUse: () => (++n < 3 ? Promise.reject(new Error('ECONNREFUSED')) : Promise.resolve(true)) });
    await until(() => t.d.isStarted);
    expect(n).toBe(3);
    await t.d.close();
  });

  test('when a start fails, then it is not kept: the event and those within the retry interval are refused as unavailable (503, not a 500), and a later one starts it', async () => {
    const real = new FakeDelivery();
    let n = 0;
    const t = setup({ start: () => (++n === 1 ? Promise.reject(new Error('boom')) : Promise.resolve(real)) });
    await expect(t.d.enqueue([delivery('e1')])).rejects.toBeInstanceOf(UpstreamUnavailableError);
    // Within checkEveryMs of the failure: refused at once, no new start.
    await expect(t.d.enqueue([delivery('e2')])).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(n).toBe(1);
    await elapse(15);
    await t.d.enqueue([delivery('e3')]);
    expect(real.enqueued.map((b) => b[0].event.id)).toEqual(['e3']);
    await t.d.close();
  });

  test('when a start fails while a check is waiting on Redis, then one polling loop is left, and none after close', async () => {
    let release: (v: boolean) => void = () => {};
    let asked = 0;
    const t = setup({
      inUse: () => { asked++; return asked === 1 ? new Promise<boolean>((r) => { release = r; }) : Promise.resolve(false); },
      start: () => Promise.reject(new Error('boom')),
    });
    await expect(t.d.enqueue([delivery('e1')])).rejects.toBeInstanceOf(UpstreamUnavailableError);
    release(false);
    await elapse(55);
    // One loop: about one check per 10 ms, not two.
    expect(asked).toBeLessThanOrEqual(8);
    await t.d.close();
    const after = asked;
    await elapse(40);
    expect(asked).toBe(after);
  });

  test('when it is closed, then nothing starts: an event is refused as unavailable (503) and a queue in use is not joined', async () => {
    const t = setup();
    await t.d.close();
    t.useQueue();
    await expect(t.d.enqueue([delivery('e1')])).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await elapse(40);
    expect(t.starts()).toBe(0);
  });

  test('when close is called while it starts, then it waits for the start and closes what was started', async () => {
    const t = setup();
    const pending = t.d.enqueue([delivery('e1')]);
    await t.d.close();
    await pending;
    expect(t.real.closed).toBe(true);
  });
});
