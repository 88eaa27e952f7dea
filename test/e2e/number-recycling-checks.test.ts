import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { expectCorrelated, expectErrorInfo, subscriberWith } from '../support/camara-scenarios';

/*
 * Number Recycling 0.2.0 (CONTRACT §11) beyond its official scenarios, which the conformance
 * kit runs as they are (docs/conformance.md): more values per rule, the day boundary in
 * TIMEZONE (Dar es Salaam, +03:00, so "the start of specifiedDate" is not UTC midnight), both
 * token kinds. Every reply is validated against number-recycling.yaml by the harness.
 */

const CHECK = '/number-recycling/v0.2/check';
const D = 86_400_000;
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('Number Recycling: checks beyond the official scenarios', () => {
  let c: CamaraHarness;
  let token: string;
  let seq = 0;

  beforeAll(async () => {
    c = await startCamaraHarness({ env: { TIMEZONE: 'Africa/Dar_es_Salaam' } });
    token = await c.tokens.twoLegged({ scope: 'number-recycling:check' });
  });
  afterAll(() => c?.close());

  const check = (body: unknown, t: string | null = token) => c.call(CHECK, body, { token: t });
  const recycled = (r: { body: unknown }) => (r.body as { phoneNumberRecycled: boolean }).phoneNumberRecycled;

  it('when the subscriber began before specifiedDate, by number or by a three-legged token, then phoneNumberRecycled is false and the correlator is echoed', async () => {
    // Demo 001's subscriber began 1000 days before start; on a date after that, it is the same subscriber.
    const r = await c.call(CHECK, { phoneNumber: '+255712000001', specifiedDate: isoDate(Date.now() - 900 * D) }, { token, headers: { 'x-correlator': 'nr-1' } });
    expect([r.status, r.body]).toEqual([200, { phoneNumberRecycled: false }]);
    expectCorrelated(r, 'nr-1');
    const three = await c.tokens.threeLegged('+255712000015', { scope: 'number-recycling:check' });
    expect(recycled(await check({ specifiedDate: isoDate(Date.now() - 10 * D) }, three))).toBe(false);
  });

  it('when the subscriber began after specifiedDate, then true; the day boundary is the start of specifiedDate in TIMEZONE', async () => {
    // Demo 015 is a recycled number: its current subscriber began 20 days before start.
    const r = await check({ phoneNumber: '+255712000015', specifiedDate: isoDate(Date.now() - 400 * D) });
    expect([r.status, r.body]).toEqual([200, { phoneNumberRecycled: true }]);
    // The day boundary is the start of specifiedDate in TIMEZONE (+03:00): began at 21:00Z on
    // the 9th is 00:00 local on the 10th, so on or before the 10th, and after the 9th.
    const phoneNumber = subscriberWith(c, '25571250', ++seq, { activatedAt: '2025-03-09T21:00:00Z' });
    expect(recycled(await check({ phoneNumber, specifiedDate: '2025-03-10' }))).toBe(false);
    expect(recycled(await check({ phoneNumber, specifiedDate: '2025-03-09' }))).toBe(true);
  });

  it('when specifiedDate is not a real YYYY-MM-DD day or not a string, then 400 INVALID_ARGUMENT', async () => {
    for (const specifiedDate of ['2023/07/03', '2023-07-03T00:00:00Z', '2023-02-29', '03-07-2023', '2023-7-3', 20230703, null, '']) {
      expectErrorInfo(await check({ phoneNumber: '+255712000001', specifiedDate }), 400, 'INVALID_ARGUMENT');
    }
  });

  it('when the body is missing, with or without a Content-Type, then 400 INVALID_ARGUMENT', async () => {
    expectErrorInfo(await check(undefined), 400, 'INVALID_ARGUMENT');
    expectErrorInfo(await c.call(CHECK, undefined, { token, contentType: null }), 400, 'INVALID_ARGUMENT');
  });


  it('when specifiedDate is after today, near or far, then 400 OUT_OF_RANGE', async () => {
    for (const specifiedDate of [isoDate(Date.now() + 2 * D), '2999-01-01']) {
      expectErrorInfo(await check({ phoneNumber: '+255712000001', specifiedDate }), 400, 'OUT_OF_RANGE');
    }
  });

  it('when the body is not a JSON object, is truncated or has an undeclared property, then 400 INVALID_ARGUMENT', async () => {
    for (const body of ['["2023-07-03"]', '"2023-07-03"', '{"specifiedDate":', { specifiedDate: '2023-07-03', phoneNumber: '+255712000001', extra: 1 }]) {
      expectErrorInfo(await check(body), 400, 'INVALID_ARGUMENT');
    }
  });


  it('when the token is unsigned (alg none) or its signature is altered, then 401 UNAUTHENTICATED', async () => {
    for (const t of ['eyJhbGciOiJub25lIn0.eyJzY29wZSI6Im51bWJlci1yZWN5Y2xpbmc6Y2hlY2sifQ.', `${token}x`]) {
      expectErrorInfo(await check({ phoneNumber: '+255712000001', specifiedDate: '2020-01-01' }, t), 401, 'UNAUTHENTICATED');
    }
  });



  it('when phoneNumber is not an E.164 string, then 400 INVALID_ARGUMENT', async () => {
    for (const phoneNumber of ['+25571200000a', '255712000001', 42]) {
      expectErrorInfo(await check({ phoneNumber, specifiedDate: '2020-01-01' }), 400, 'INVALID_ARGUMENT');
    }
  });




});
