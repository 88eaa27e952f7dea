import { loadFixtures, defaultFixturesPath } from '../../src/simulator/fixtures';
import { parseSimulatorEnv } from '../../src/simulator/main';
import { createSimulator } from '../../src/simulator/simulator';
import { swapReporter } from '../../src/simulator/swap-reporter';
import { SinkServer, startSink } from '../support/sink-server';
import { EVENTS_TOKEN, SWAPPED, SubsHarness, startSubsHarness, subscriptionBody } from '../support/subscriptions-harness';

describe('the simulator reports the swaps it makes to the service', () => {
  let h: SubsHarness;
  let sink: SinkServer;
  let report: (msisdn: string) => void = () => undefined;
  let closeSim: () => Promise<void> = () => Promise.resolve();
  let simUrl = '';

  beforeAll(async () => {
    sink = await startSink();
    const simulator = createSimulator({ subscribers: loadFixtures(defaultFixturesPath()), synthetic: false, onSwap: (m) => report(m) });
    simUrl = await simulator.listen(0, '127.0.0.1');
    closeSim = () => simulator.close();
    h = await startSubsHarness({ SIM_BASE: simUrl }, simulator);
    report = swapReporter(`${h.url}/internal/events/sim-swap`, EVENTS_TOKEN, () => undefined);
  });
  afterAll(async () => {
    await h.close();
    await closeSim();
    await sink.close();
  });

  test("when an admin upsert has a new lastSimSwapAt, then a swapped event reaches the subscriber's sink; when unchanged, then none", async () => {
    const s = await h.subscribe(subscriptionBody(sink.url, '+255712000002'));
    expect(s.status).toBe(201);
    const control = await h.subscribe(subscriptionBody(sink.url, '+255712000006'));
    expect(control.status).toBe(201);
    const put = (msisdn: string, body: object) => fetch(`${simUrl}/__admin/subscribers/${msisdn}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await put('255712000002', { status: 'active', paymentType: 'postpaid', iccid: '8925500000000000099', lastSimSwapAt: 'now-1m', activatedAt: 'now-400d' })).status).toBe(200);
    const [got] = await sink.waitFor((d) => d.length >= 1);
    expect(got.body).toMatchObject({ type: SWAPPED, data: { subscriptionId: s.body.id, phoneNumber: '+255712000002' } });
    // The same (earlier) swap time again is no new swap.
    expect((await put('255712000002', { status: 'active', paymentType: 'postpaid', iccid: '8925500000000000099', lastSimSwapAt: 'now-1h', activatedAt: 'now-400d' })).status).toBe(200);
    // Positive control: a real swap of another line, reported after the unchanged one, travels the
    // same way (report, queue, sink); once it has arrived, a wrong report of 002 would have too.
    expect((await put('255712000006', { status: 'active', paymentType: 'prepaid', iccid: '8925500000000000098', lastSimSwapAt: 'now-1m', activatedAt: 'now-1200d' })).status).toBe(200);
    await sink.waitFor((d) => d.some((r) => r.body.data.phoneNumber === '+255712000006'));
    // One event each (a retry's copy of one, same id, is allowed: at-least-once).
    expect(sink.events().map((r) => r.body.data.phoneNumber)).toEqual(['+255712000002', '+255712000006']);
  });

  test('when SIMULATOR_EVENTS_URL or SIMULATOR_EVENTS_TOKEN is set, then both are read together', () => {
    expect(parseSimulatorEnv({ SIMULATOR_EVENTS_URL: 'http://127.0.0.1:8080/internal/events/sim-swap', SIMULATOR_EVENTS_TOKEN: 't' })).toMatchObject({ eventsUrl: 'http://127.0.0.1:8080/internal/events/sim-swap', eventsToken: 't' });
    expect(() => parseSimulatorEnv({ SIMULATOR_EVENTS_URL: 'http://x/y' })).toThrow(/together/);
    expect(() => parseSimulatorEnv({ SIMULATOR_EVENTS_URL: 'ftp://x', SIMULATOR_EVENTS_TOKEN: 't' })).toThrow(/SIMULATOR_EVENTS_URL/);
  });
});
