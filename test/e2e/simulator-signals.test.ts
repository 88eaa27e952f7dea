import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { defaultFixturesPath, loadFixtures } from '../../src/simulator/fixtures';
import { createSimulator, Simulator } from '../../src/simulator/simulator';
import { toRfc3339Seconds } from '../../src/simulator/subscriber';
import { syntheticSubscriber, SYNTHETIC_RATES } from '../../src/simulator/synthetic';

// The CONTRACT §11 facts: device and call forwarding in the HLR body, customer records under /crm.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = new Date('2026-11-20T08:15:00Z');
const ago = (ms: number) => toRfc3339Seconds(now.getTime() - ms);
const UNKNOWN = '255712999999';

type Body = Record<string, unknown>;

async function call(base: string, method: string, p: string, body?: unknown): Promise<{ status: number; type: string | null; body: Body }> {
  const init: RequestInit = { method, headers: { 'content-type': 'application/json' } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await fetch(base + p, init);
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), body: (text ? JSON.parse(text) : {}) as Body };
}

describe('simulator serving the fraud and identity facts of the demo fixture', () => {
  let sim: Simulator;
  let base: string;
  const get = (p: string) => call(base, 'GET', p);
  const put = (p: string, body: unknown) => call(base, 'PUT', p, body);
  const hlr = (n: string) => get(`/hlr/subscribers/${n}`);
  const crm = (n: string) => get(`/crm/subscribers/${n}/identity`);

  beforeAll(async () => {
    sim = createSimulator({ subscribers: loadFixtures(defaultFixturesPath(), now), synthetic: false });
    base = await sim.listen(0);
  });
  afterAll(() => sim.close());
  beforeEach(() => {
    sim.resetFaults();
    sim.resetCalls();
  });

  it('when a demo number changed device recently, long ago, never, or never was in a device, then the HLR body says so with the relative dates resolved', async () => {
    expect((await hlr('255712000011')).body).toMatchObject({ deviceFirstSeenAt: ago(700 * DAY), deviceChangedAt: ago(2 * HOUR) });
    expect((await hlr('255712000012')).body).toMatchObject({ deviceFirstSeenAt: ago(1500 * DAY), deviceChangedAt: ago(400 * DAY) });
    expect((await hlr('255712000013')).body).toMatchObject({ deviceFirstSeenAt: ago(300 * DAY), deviceChangedAt: null });
    expect((await hlr('255712000014')).body).toMatchObject({ deviceFirstSeenAt: null, deviceChangedAt: null });
  });

  it('when a demo number has unconditional, conditional only or no call forwarding, then the HLR body lists exactly those services', async () => {
    expect((await hlr('255712000012')).body.callForwarding).toEqual(['unconditional']);
    expect((await hlr('255712000013')).body.callForwarding).toEqual(['conditional_busy', 'conditional_no_answer']);
    expect((await hlr('255712000011')).body.callForwarding).toEqual([]);
  });

  it('when a number\'s facts are unknown (the older demo numbers), then its HLR body stays exactly what it was', async () => {
    expect(await hlr('255712000001')).toEqual({ status: 200, type: 'application/json',
      body: { msisdn: '255712000001', status: 'active', paymentType: 'prepaid', activatedAt: ago(1460 * DAY) } });
  });

  it('when a number was recycled (a new subscriber 20 days ago), then its tenure start is recent; a long-held number\'s is not', async () => {
    expect((await hlr('255712000015')).body).toMatchObject({ activatedAt: ago(20 * DAY), deviceFirstSeenAt: ago(20 * DAY) });
    expect((await hlr('255712000011')).body.activatedAt).toBe(ago(700 * DAY));
  });

  it('when a subscriber has an identity record, then CRM answers it whole: accented Latin, given and family only, kana', async () => {
    const full = await crm('255712000011');
    expect(full).toEqual({ status: 200, type: 'application/json', body: { msisdn: '255712000011',
      idDocument: '19870412-11111-00011-27', idDocumentType: 'national_id_card', idDocumentExpiryDate: '2031-04-11', identityVerified: true,
      name: 'José María Núñez', givenName: 'José', familyName: 'Núñez', middleNames: 'María', familyNameAtBirth: 'Núñez Añorga',
      address: 'Samora 12, 4B', streetName: 'Samora', streetNumber: '12', postalCode: '11101', region: 'Dar es Salaam',
      locality: 'Kariakoo', country: 'TZ', houseNumberExtension: '4B', birthdate: '1987-04-12', email: 'jose.nunez@example.com',
      gender: 'MALE', cityOfBirth: 'Sevilla', countryOfBirth: 'ES', nationality: 'ES' } });
    expect((await crm('255712000012')).body).toEqual({ msisdn: '255712000012', givenName: 'Neema', familyName: 'Mwakyusa',
      birthdate: '1992-09-30', gender: 'FEMALE', country: 'TZ', identityVerified: false });
    expect((await crm('255712000013')).body).toMatchObject({ nameKanaHankaku: 'ｻﾄｳ ﾕｷ', nameKanaZenkaku: 'サトウ ユキ', name: '佐藤 由紀' });
  });

  it('when a subscriber has no identity record or the number is unknown, then CRM answers the HLR\'s own not-a-subscriber 404', async () => {
    const hlr404 = await hlr(UNKNOWN);
    expect(hlr404.status).toBe(404);
    expect(await crm(UNKNOWN)).toEqual(hlr404);
    // The body may name the number asked; the record-less subscriber's 404 is the same shape for its own number.
    const noRecord = await crm('255712000014');
    expect(noRecord).toEqual({ ...hlr404, body: JSON.parse(JSON.stringify(hlr404.body).replaceAll(UNKNOWN, '255712000014')) as Body });
    expect((await crm('255712000001')).status).toBe(404);
    expect((await hlr('255712000014')).status).toBe(200);
  });

  it('when CRM is asked, then each call counts once under crm, 404s and faulted calls included, admin calls not', async () => {
    await crm('255712000011');
    await crm('255712000014');
    await put('/__admin/faults/crm', { errorRate: 1 });
    await crm('255712000011');
    await get('/hlr/subscribers/255712000011');
    expect((await get('/__admin/calls')).body).toEqual({ hlr: 1, sim: 0, crm: 3 });
    expect((await call(base, 'DELETE', '/__admin/calls')).status).toBe(204);
    expect(sim.calls()).toEqual({ hlr: 0, sim: 0, crm: 0 });
  });

  it('when CRM is down, failing or slow, then it answers as HLR and SIM do under the same faults, leaving them unaffected', async () => {
    expect((await put('/__admin/faults/crm', { down: true })).body).toEqual({ latencyMs: 0, errorRate: 0, down: true });
    await expect(fetch(`${base}/crm/subscribers/255712000011/identity`)).rejects.toThrow();
    expect((await hlr('255712000011')).status).toBe(200);
    await put('/__admin/faults/crm', { down: false, errorRate: 0.5 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await crm('255712000011')).status);
    expect(statuses).toEqual([200, 503, 200, 503]);
    await put('/__admin/faults/crm', { errorRate: 0, latencyMs: 300 });
    const started = Date.now();
    expect((await crm('255712000011')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect((await put('/__admin/faults/crm', { slow: true })).status).toBe(400);
  });

  it('when DELETE /__admin/faults is called, then CRM is back to normal too', async () => {
    await put('/__admin/faults/crm', { down: true });
    expect((await call(base, 'DELETE', '/__admin/faults')).status).toBe(204);
    expect((await crm('255712000011')).status).toBe(200);
  });

  it('when an admin upsert gives device dates in every form, call forwarding and an identity, then HLR and CRM serve them', async () => {
    const n = '255712000097';
    const base0 = { status: 'active', paymentType: 'prepaid', iccid: '8925500000000000097', lastSimSwapAt: null };
    const put1 = await put(`/__admin/subscribers/${n}`, { ...base0, deviceFirstSeenAt: '2020-01-02T03:04:05+03:00', deviceChangedAt: 'now-30m',
      callForwarding: ['conditional_no_answer', 'unconditional'], identity: { givenName: 'Zoë', email: 'zoe@example.com' } });
    expect(put1.status).toBe(200);
    const body = (await hlr(n)).body;
    expect(body).toMatchObject({ deviceFirstSeenAt: '2020-01-02T03:04:05+03:00', callForwarding: ['unconditional', 'conditional_no_answer'] });
    expect(Math.abs(Date.now() - 30 * 60_000 - Date.parse(body.deviceChangedAt as string))).toBeLessThan(5000);
    expect((await crm(n)).body).toEqual({ msisdn: n, givenName: 'Zoë', email: 'zoe@example.com' });
    await put(`/__admin/subscribers/${n}`, { ...base0, deviceFirstSeenAt: 'now-400d', deviceChangedAt: 'now-3h', identity: null });
    const again = (await hlr(n)).body;
    expect(Math.abs(Date.now() - 400 * DAY - Date.parse(again.deviceFirstSeenAt as string))).toBeLessThan(5000);
    expect(again).not.toHaveProperty('callForwarding');
    expect((await crm(n)).status).toBe(404);
  });

  it('when an admin upsert has a bad call-forwarding value, an unknown or non-string identity field or impossible device dates, then 400 names it and nothing changes', async () => {
    const sub = '/__admin/subscribers/255712000011';
    const good = { status: 'active', paymentType: 'prepaid', iccid: '8925500000000000011', lastSimSwapAt: null };
    const bad: [unknown, RegExp][] = [
      [{ callForwarding: ['always'] }, /callForwarding/], [{ callForwarding: 'unconditional' }, /callForwarding/],
      [{ callForwarding: ['unconditional', 'unconditional'] }, /callForwarding.*twice/],
      [{ identity: { givenName: 'A', passportPhoto: 'x' } }, /identity\.passportPhoto/], [{ identity: { birthdate: 19870412 } }, /identity\.birthdate/],
      [{ identity: { name: 'x'.repeat(257) } }, /identity\.name/], [{ identity: ['José'] }, /identity/],
      [{ deviceChangedAt: 'yesterday' }, /deviceChangedAt/], [{ deviceFirstSeenAt: '2026-02-30T00:00:00Z' }, /deviceFirstSeenAt/],
      [{ deviceFirstSeenAt: 'now-3h', deviceChangedAt: 'now-1d' }, /deviceChangedAt is before/],
      [{ deviceFirstSeenAt: null, deviceChangedAt: 'now-1d' }, /deviceChangedAt/],
    ];
    for (const [extra, message] of bad) {
      const res = await put(sub, { ...good, ...(extra as object) });
      expect({ extra, status: res.status }).toEqual({ extra, status: 400 });
      expect(res.body.error).toMatch(message);
    }
    expect((await crm('255712000011')).body.name).toBe('José María Núñez');
    expect((await hlr('255712000011')).body.callForwarding).toEqual([]);
  });

  it('when a fixture file has a bad call-forwarding value or identity field, then loading it fails naming the record and field', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sim-fixtures-'));
    const file = path.join(dir, 'f.json');
    const rec = { msisdn: '255712000001', status: 'active', paymentType: 'prepaid', iccid: '8925500000000000001', lastSimSwapAt: null };
    writeFileSync(file, JSON.stringify({ subscribers: [rec, { ...rec, msisdn: '255712000002', callForwarding: ['busy'] }] }));
    expect(() => loadFixtures(file)).toThrow(/subscribers\[1\]\.callForwarding/);
    writeFileSync(file, JSON.stringify({ subscribers: [{ ...rec, identity: { surname: 'X' } }] }));
    expect(() => loadFixtures(file)).toThrow(/subscribers\[0\]\.identity\.surname/);
  });
});

describe('simulator in synthetic mode, fraud and identity facts', () => {
  const startedAt = new Date('2026-01-01T00:00:00Z');
  let sim: Simulator;
  let base: string;

  beforeAll(async () => {
    sim = createSimulator({ subscribers: loadFixtures(defaultFixturesPath(), now), synthetic: true, startedAt });
    base = await sim.listen();
  });
  afterAll(() => sim.close());

  it('when an unknown number is asked twice, or of another simulator started at the same time, then HLR and CRM give the same answer', async () => {
    const other = createSimulator({ subscribers: [], synthetic: true, startedAt });
    const otherBase = await other.listen();
    try {
      for (const p of ['/hlr/subscribers/255799123456', '/crm/subscribers/255799123456/identity']) {
        const first = await call(base, 'GET', p);
        expect(first.status).toBe(200);
        expect((await call(base, 'GET', p)).body).toEqual(first.body);
        expect((await call(otherBase, 'GET', p)).body).toEqual(first.body);
      }
    } finally {
      await other.close();
    }
    const hlr = (await call(base, 'GET', '/hlr/subscribers/255799123456')).body;
    expect(Object.keys(hlr)).toEqual(expect.arrayContaining(['deviceFirstSeenAt', 'deviceChangedAt', 'callForwarding']));
    expect((await call(base, 'GET', '/crm/subscribers/255799123456/identity')).body).toMatchObject({ msisdn: '255799123456', country: 'TZ' });
  });

  it('when the §11 facts were added, then the older synthetic attributes of a number did not move', () => {
    expect(syntheticSubscriber('255780000002', startedAt)).toMatchObject({ status: 'active', paymentType: 'prepaid',
      iccid: '8925505307677155850', lastSimSwapAt: '2025-11-27T14:00:00Z', activatedAt: '2024-04-20T00:00:00Z', simActivatedAt: '2025-11-27T14:00:00Z' });
    expect(syntheticSubscriber('255799123456', startedAt)).toMatchObject({ paymentType: 'postpaid', iccid: '8925557710329288467',
      lastSimSwapAt: null, activatedAt: '2020-12-23T00:00:00Z' });
  });

  it('when numbers are drawn over a range, then device, forwarding and identity facts come at the documented shares and in a possible order', async () => {
    const subs = Array.from({ length: 20_000 }, (_, i) => syntheticSubscriber(String(255780000000 + i), startedAt, true)).filter((s) => s !== null);
    const share = (pred: (s: (typeof subs)[number]) => boolean) => subs.filter(pred).length / subs.length;
    const within = (v: number, target: number) => expect(Math.abs(v - target)).toBeLessThan(target * 0.15);
    within(share((s) => s.deviceFirstSeenAt === null), SYNTHETIC_RATES.neverInDevice);
    within(share((s) => typeof s.deviceChangedAt === 'string'), (1 - SYNTHETIC_RATES.neverInDevice) * SYNTHETIC_RATES.deviceChanged);
    within(share((s) => s.callForwarding?.[0] === 'unconditional'), SYNTHETIC_RATES.forwardingUnconditional);
    within(share((s) => (s.callForwarding?.length ?? 0) > 0 && s.callForwarding?.[0] !== 'unconditional'), SYNTHETIC_RATES.forwardingConditional);
    within(share((s) => s.identity !== undefined), SYNTHETIC_RATES.identity);
    const impossible = subs.filter((s) => {
      const first = s.deviceFirstSeenAt ? Date.parse(s.deviceFirstSeenAt) : null;
      const changed = s.deviceChangedAt ? Date.parse(s.deviceChangedAt) : null;
      if (first === null) return changed !== null;
      return first < Date.parse(s.activatedAt!) || first > startedAt.getTime()
        || (changed !== null && (changed < first || changed >= startedAt.getTime()));
    });
    expect(impossible).toEqual([]);
    const noRecord = subs.find((s) => s.identity === undefined)!;
    expect((await call(base, 'GET', `/crm/subscribers/${noRecord.msisdn}/identity`)).status).toBe(404);
    expect((await call(base, 'GET', `/hlr/subscribers/${noRecord.msisdn}`)).status).toBe(200);
  });
});
