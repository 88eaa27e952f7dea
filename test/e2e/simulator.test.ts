import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { defaultFixturesPath, loadFixtures } from '../../src/simulator/fixtures';
import { createSimulator, Simulator } from '../../src/simulator/simulator';
import { toRfc3339Seconds } from '../../src/simulator/subscriber';
import { syntheticSubscriber, SYNTHETIC_RATES } from '../../src/simulator/synthetic';
import { until } from '../support/until';

const HOUR = 3_600_000;
const now = new Date('2026-11-20T08:15:00Z');

/** Every field a simulator answer (upstream or admin) may carry. */
interface SimBody {
  msisdn?: string; status?: string; paymentType?: string; iccid?: string;
  lastSimSwapAt?: string | null; activatedAt?: string | null; simActivatedAt?: string | null;
  error?: string; latencyMs?: number; errorRate?: number; down?: boolean; hlr?: number; sim?: number;
}

async function call(base: string, method: string, p: string, body?: unknown): Promise<{ status: number; type: string | null; body: SimBody }> {
  const init: RequestInit = { method, headers: { 'content-type': 'application/json' } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(base + p, init);
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), body: (text ? JSON.parse(text) : {}) as SimBody };
}

describe('simulator serving the demo fixture', () => {
  let sim: Simulator;
  let base: string;
  const get = (p: string) => call(base, 'GET', p);
  const put = (p: string, body: unknown) => call(base, 'PUT', p, body);

  beforeAll(async () => {
    sim = createSimulator({ subscribers: loadFixtures(defaultFixturesPath(), now), synthetic: false });
    base = await sim.listen(0);
  });
  afterAll(() => sim.close());
  beforeEach(() => {
    sim.resetFaults();
    sim.resetCalls();
  });

  it('when the HLR is asked for a fixture subscriber, then it answers with status, payment type and tenure start', async () => {
    const res = await get('/hlr/subscribers/255712000003');
    expect(res).toEqual({ status: 200, type: 'application/json',
      body: { msisdn: '255712000003', status: 'suspended', paymentType: 'prepaid', activatedAt: '2024-06-03T08:15:00Z' } });
    expect((await get('/hlr/subscribers/255712000009')).body).toMatchObject({ paymentType: 'business' });
  });

  it("when SIM management is asked for a never-swapped subscriber, then it answers its iccid, a null swap date and the line's activation as the SIM's", async () => {
    const res = await get('/sim/subscribers/255712000001/sim');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ msisdn: '255712000001', iccid: '8925500000000000001', lastSimSwapAt: null,
      simActivatedAt: toRfc3339Seconds(now.getTime() - 1460 * 24 * HOUR) });
  });

  it('when a subscriber was swapped, then its current SIM was activated by its latest swap', async () => {
    const res = await get('/sim/subscribers/255712000006/sim');
    expect(res.body.simActivatedAt).toBe(res.body.lastSimSwapAt);
    expect(res.body.simActivatedAt).toBe(toRfc3339Seconds(now.getTime() - 3 * HOUR));
  });

  it('when the demo fixture is loaded, then its relative swap dates resolve against the load time', async () => {
    expect((await get('/sim/subscribers/255712000006/sim')).body?.lastSimSwapAt).toBe(toRfc3339Seconds(now.getTime() - 3 * HOUR));
    expect((await get('/sim/subscribers/255712000008/sim')).body?.lastSimSwapAt).toBe('2026-11-20T07:45:00Z');
    expect((await get('/sim/subscribers/255712000007/sim')).body?.lastSimSwapAt).toBe('2026-08-22T08:15:00Z');
  });

  it('when a number is not a subscriber, then both systems answer 404, naming the number asked', async () => {
    expect(await get('/hlr/subscribers/255712999999')).toMatchObject({ status: 404, body: { error: 'not_found', msisdn: '255712999999' } });
    expect(await get('/sim/subscribers/255712999999/sim')).toMatchObject({ status: 404, body: { error: 'not_found', msisdn: '255712999999' } });
  });

  it('when a route is unknown, then its 404 names no number, so a client cannot take it for "not a subscriber"', async () => {
    expect(await get('/hrl/subscribers/255712999999')).toMatchObject({ status: 404, body: { error: 'not found' } });
    expect((await get('/hlr/subscribers/255712999999/x')).body).not.toHaveProperty('msisdn');
  });

  it('when routes or methods are unknown, then 404, not counted as upstream calls', async () => {
    for (const [m, p] of [['GET', '/'], ['POST', '/hlr/subscribers/255712000001'], ['GET', '/hlr/subscribers/'],
      ['GET', '/sim/subscribers/255712000001'], ['GET', '/__admin/nothing'], ['PUT', '/__admin/faults/xyz']]) {
      expect((await call(base, m, p, m === 'GET' ? undefined : {})).status).toBe(404);
    }
    expect(sim.calls()).toEqual({ hlr: 0, sim: 0, crm: 0 });
  });

  it('when a subscriber is upserted through the admin API, then the path msisdn wins over the body', async () => {
    const res = await put('/__admin/subscribers/255712000099', { msisdn: '255700000000', status: 'active',
      paymentType: 'postpaid', iccid: '8925500000000000099', lastSimSwapAt: 'now-1h' });
    expect(res.status).toBe(200);
    expect(res.body?.msisdn).toBe('255712000099');
    expect((await get('/hlr/subscribers/255712000099')).body).toEqual(
      { msisdn: '255712000099', status: 'active', paymentType: 'postpaid', activatedAt: null });
    const swappedAt = Date.parse((await get('/sim/subscribers/255712000099/sim')).body.lastSimSwapAt ?? '');
    expect(Date.now() - swappedAt).toBeGreaterThan(HOUR - 5000);
    expect(Date.now() - swappedAt).toBeLessThan(HOUR + 5000);
    expect((await get('/hlr/subscribers/255700000000')).status).toBe(404);
  });

  it('when tenure facts are upserted in any form (RFC 3339, null, relative), then they are taken, and simActivatedAt defaults to the swap, else the activation', async () => {
    const base0 = { status: 'active', paymentType: 'business', iccid: '8925500000000000098' };
    const sim = (n: string) => get(`/sim/subscribers/${n}/sim`).then((r) => r.body as Record<string, unknown>);
    const hlr = (n: string) => get(`/hlr/subscribers/${n}`).then((r) => r.body as Record<string, unknown>);
    expect((await put('/__admin/subscribers/255712000098', { ...base0, lastSimSwapAt: null, activatedAt: '2020-01-02T03:04:05+03:00' })).status).toBe(200);
    expect(await hlr('255712000098')).toMatchObject({ paymentType: 'business', activatedAt: '2020-01-02T03:04:05+03:00' });
    expect((await sim('255712000098')).simActivatedAt).toBe('2020-01-02T03:04:05+03:00');
    await put('/__admin/subscribers/255712000098', { ...base0, lastSimSwapAt: 'now-3h', activatedAt: 'now-400d' });
    const s1 = await sim('255712000098');
    expect(s1.simActivatedAt).toBe(s1.lastSimSwapAt);
    const activated = Date.parse((await hlr('255712000098')).activatedAt as string);
    expect(Math.abs(Date.now() - 400 * 24 * HOUR - activated)).toBeLessThan(5000);
    await put('/__admin/subscribers/255712000098', { ...base0, lastSimSwapAt: null, activatedAt: 'now-400d', simActivatedAt: 'now-30m' });
    const s2 = await sim('255712000098');
    expect(Math.abs(Date.now() - 30 * 60_000 - Date.parse(s2.simActivatedAt as string))).toBeLessThan(5000);
    await put('/__admin/subscribers/255712000098', { ...base0, lastSimSwapAt: null, activatedAt: 'now-400d', simActivatedAt: null });
    expect((await sim('255712000098')).simActivatedAt).toBeNull();
    expect((await put('/__admin/subscribers/255712000098', { ...base0, lastSimSwapAt: null, activatedAt: 'last year' })).body.error).toMatch(/activatedAt/);
    expect((await put('/__admin/subscribers/255712000098', { ...base0, lastSimSwapAt: null, simActivatedAt: 5 })).body.error).toMatch(/simActivatedAt/);
  });

  it('when an admin body is bad, then 400 naming the problem, and it keeps serving', async () => {
    const good = { status: 'active', paymentType: 'prepaid', iccid: '8925500000000000001', lastSimSwapAt: null };
    const sub = '/__admin/subscribers/255712000001';
    expect((await put(sub, { ...good, status: 'gone' })).body?.error).toMatch(/status/);
    expect((await put(sub, { ...good, lastSimSwapAt: '2026-02-30T00:00:00Z' })).body?.error).toMatch(/lastSimSwapAt/);
    expect((await put(sub, { ...good, lastSwapAt: null })).body?.error).toMatch(/lastSwapAt/);
    expect((await put('/__admin/subscribers/0712000001', good)).body?.error).toMatch(/msisdn/);
    for (const body of ['{not json', '[]', '"x"', '']) expect((await put(sub, body)).status).toBe(400);
    for (const body of [{ errorRate: 2 }, { latencyMs: -1 }, { latencyMs: 1.5 }, { down: 'yes' }, { slow: true }, [1]]) {
      expect((await put('/__admin/faults/hlr', body)).status).toBe(400);
    }
    expect((await put(sub, { pad: 'x'.repeat(70 * 1024) })).status).toBe(413);
    expect((await get('/hlr/subscribers/255712000001')).body?.status).toBe('active');
    expect(sim.calls().hlr).toBe(1);
  });

  it('when a latency fault is set, then answers are delayed without blocking the other system', async () => {
    expect((await put('/__admin/faults/hlr', { latencyMs: 300 })).body).toEqual({ latencyMs: 300, errorRate: 0, down: false });
    const started = Date.now();
    const slow = get('/hlr/subscribers/255712000001').then((r) => ({ ...r, ms: Date.now() - started }));
    const fast = await get('/sim/subscribers/255712000001/sim');
    expect(fast.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(250);
    const done = await slow;
    expect(done.status).toBe(200);
    expect(done.ms).toBeGreaterThanOrEqual(290);
  });

  it('when errorRate is 0.5, then exactly every second call fails', async () => {
    await put('/__admin/faults/sim', { errorRate: 0.5 });
    const results = [];
    for (let i = 0; i < 10; i++) results.push(await get('/sim/subscribers/255712000001/sim'));
    expect(results.map((r) => r.status)).toEqual([200, 503, 200, 503, 200, 503, 200, 503, 200, 503]);
    expect(results[1].body).toEqual({ error: 'injected fault' });
    expect(sim.calls().sim).toBe(10);
  });

  it('when the system is down, then the socket is destroyed without an answer, and the call still counted', async () => {
    await put('/__admin/faults/hlr', { down: true });
    await expect(fetch(`${base}/hlr/subscribers/255712000001`)).rejects.toThrow();
    expect(sim.calls()).toEqual({ hlr: 1, sim: 0, crm: 0 });
    expect((await get('/sim/subscribers/255712000001/sim')).status).toBe(200);
  });

  it('when DELETE /__admin/faults is sent, then normal answers are restored', async () => {
    await put('/__admin/faults/hlr', { down: true });
    await put('/__admin/faults/sim', { errorRate: 1 });
    expect((await call(base, 'DELETE', '/__admin/faults')).status).toBe(204);
    expect((await get('/hlr/subscribers/255712000001')).status).toBe(200);
    expect((await get('/sim/subscribers/255712000001/sim')).status).toBe(200);
  });

  it('when calls are counted, then faulted ones are included and admin calls excluded', async () => {
    await get('/hlr/subscribers/255712000001');
    await get('/hlr/subscribers/255712999999');
    await put('/__admin/faults/sim', { errorRate: 1 });
    await get('/sim/subscribers/255712000001/sim');
    expect((await get('/__admin/calls')).body).toEqual({ hlr: 2, sim: 1, crm: 0 });
    expect((await call(base, 'DELETE', '/__admin/calls')).status).toBe(204);
    expect((await get('/__admin/calls')).body).toEqual({ hlr: 0, sim: 0, crm: 0 });
  });
});

describe('simulator in synthetic mode', () => {
  const startedAt = new Date('2026-01-01T00:00:00Z');
  let sim: Simulator;
  let base: string;

  beforeAll(async () => {
    sim = createSimulator({ subscribers: loadFixtures(defaultFixturesPath(), now), synthetic: true, startedAt });
    base = await sim.listen();
  });
  afterAll(() => sim.close());

  it('when the same unknown number is asked again, then the answer is the same every time', async () => {
    const first = await call(base, 'GET', '/sim/subscribers/255799123456/sim');
    const again = await call(base, 'GET', '/sim/subscribers/255799123456/sim');
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(first.body?.iccid).toMatch(/^89255\d{14}$/);
  });

  it('when a fixture number is asked, then it is still answered from the fixture', async () => {
    expect((await call(base, 'GET', '/hlr/subscribers/255712000004')).body?.status).toBe('terminated');
  });

  it('when the hash makes a number a non-subscriber, then both systems answer 404', async () => {
    let n = 255790000000;
    while (syntheticSubscriber(String(n), startedAt) !== null) n++;
    expect((await call(base, 'GET', `/hlr/subscribers/${n}`)).status).toBe(404);
    expect((await call(base, 'GET', `/sim/subscribers/${n}/sim`)).status).toBe(404);
  });

  it('when a range of numbers is asked, then attributes spread at roughly the documented shares', () => {
    const all = Array.from({ length: 20_000 }, (_, i) => syntheticSubscriber(String(255780000000 + i), startedAt));
    const subs = all.filter((s) => s !== null);
    const share = (n: number, of: number) => n / of;
    const within = (v: number, target: number) => expect(Math.abs(v - target)).toBeLessThan(target * 0.15);
    within(share(all.length - subs.length, all.length), SYNTHETIC_RATES.notSubscriber);
    within(share(subs.filter((s) => s.status === 'active').length, subs.length), 0.88);
    within(share(subs.filter((s) => s.status === 'terminated').length, subs.length), SYNTHETIC_RATES.terminated);
    within(share(subs.filter((s) => s.paymentType === 'prepaid').length, subs.length), SYNTHETIC_RATES.prepaid);
    const swapped = subs.filter((s) => s.lastSimSwapAt !== null);
    within(share(swapped.length, subs.length), SYNTHETIC_RATES.swapped);
    const badAges = swapped.filter((s) => {
      const hours = (startedAt.getTime() - Date.parse(s.lastSimSwapAt!)) / HOUR;
      return !(Number.isInteger(hours) && hours >= 1 && hours <= SYNTHETIC_RATES.maxSwapAgeHours);
    });
    expect(badAges).toEqual([]);
    const badTenure = subs.filter((s) => {
      const days = (startedAt.getTime() - Date.parse(s.activatedAt!)) / (24 * HOUR);
      const simOk = s.simActivatedAt === (s.lastSimSwapAt ?? s.activatedAt);
      return !(Number.isInteger(days) && days >= SYNTHETIC_RATES.minTenureDays && days <= SYNTHETIC_RATES.maxTenureDays && simOk);
    });
    expect(badTenure).toEqual([]);
  });
});

describe('simulator lifecycle and fixture loading', () => {
  it('when it closes while a call waits on a latency fault, then it closes promptly', async () => {
    const sim = createSimulator({ subscribers: [], synthetic: false });
    const base = await sim.listen();
    sim.setFault('hlr', { latencyMs: 60_000 });
    const pending = fetch(`${base}/hlr/subscribers/255712000001`);
    await until(() => sim.calls().hlr > 0, 'the call at the simulator', 5000, 5);
    const started = Date.now();
    await sim.close();
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(pending).rejects.toThrow();
  });

  it('when a fixture file has a bad field, then it is refused, naming the record and the field', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sim-fixtures-'));
    const write = (doc: unknown) => {
      const file = path.join(dir, 'f.json');
      writeFileSync(file, JSON.stringify(doc));
      return file;
    };
    const rec = { msisdn: '255712000001', status: 'active', paymentType: 'prepaid', iccid: '8925500000000000001', lastSimSwapAt: null };
    expect(() => loadFixtures(write({ subscribers: [rec, { ...rec, msisdn: '255712000002', paymentType: 'credit' }] })))
      .toThrow(/subscribers\[1\]\.paymentType/);
    expect(() => loadFixtures(write({ subscribers: [{ ...rec, lastSimSwapAt: 'now-3w' }] }))).toThrow(/lastSimSwapAt/);
    expect(() => loadFixtures(write({ subscribers: [rec, rec] }))).toThrow(/appears twice/);
    expect(() => loadFixtures(write([rec]))).toThrow(/subscribers/);
    expect(() => loadFixtures(path.join(dir, 'missing.json'))).toThrow(/cannot read/);
  });
});
