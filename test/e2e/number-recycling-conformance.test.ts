import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { expectCorrelated, expectErrorInfo, featureTags, scenarioRegistry, subscriberWith } from '../support/camara-scenarios';

/*
 * Number Recycling 0.2.0 conformance (CONTRACT §11): every scenario of the official .feature
 * file is one test named after its tag, validated against number-recycling.yaml by the harness.
 * TIMEZONE is Dar es Salaam (+03:00), so "the start of specifiedDate" is not UTC midnight.
 */

const FEATURES = ['number-recycling.feature'];
const CHECK = '/number-recycling/v0.2/check';
const D = 86_400_000;
const { scenario, tested } = scenarioRegistry();
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('Number Recycling conformance: the official scenarios', () => {
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

  scenario('checkNumberRecycling_01_success_request_response_when_phoneNumberRecycled_is_false', async () => {
    // Demo 001's subscriber began 1000 days before start; on a date after that, it is the same subscriber.
    const r = await c.call(CHECK, { phoneNumber: '+255712000001', specifiedDate: isoDate(Date.now() - 900 * D) }, { token, headers: { 'x-correlator': 'nr-1' } });
    expect([r.status, r.body]).toEqual([200, { phoneNumberRecycled: false }]);
    expectCorrelated(r, 'nr-1');
    const three = await c.tokens.threeLegged('+255712000015', { scope: 'number-recycling:check' });
    expect(recycled(await check({ specifiedDate: isoDate(Date.now() - 10 * D) }, three))).toBe(false);
  });

  scenario('checkNumberRecycling_02_success_request_response_when_phoneNumberRecycled_is_true', async () => {
    // Demo 015 is a recycled number: its current subscriber began 20 days before start.
    const r = await check({ phoneNumber: '+255712000015', specifiedDate: isoDate(Date.now() - 400 * D) });
    expect([r.status, r.body]).toEqual([200, { phoneNumberRecycled: true }]);
    // The day boundary is the start of specifiedDate in TIMEZONE (+03:00): began at 21:00Z on
    // the 9th is 00:00 local on the 10th, so on or before the 10th, and after the 9th.
    const phoneNumber = subscriberWith(c, '25571250', ++seq, { activatedAt: '2025-03-09T21:00:00Z' });
    expect(recycled(await check({ phoneNumber, specifiedDate: '2025-03-10' }))).toBe(false);
    expect(recycled(await check({ phoneNumber, specifiedDate: '2025-03-09' }))).toBe(true);
  });

  scenario('checkNumberRecycling_400.01_invalid_specifiedDate', async () => {
    for (const specifiedDate of ['2023/07/03', '2023-07-03T00:00:00Z', '2023-02-29', '03-07-2023', '2023-7-3', 20230703, null, '']) {
      expectErrorInfo(await check({ phoneNumber: '+255712000001', specifiedDate }), 400, 'INVALID_ARGUMENT');
    }
  });

  scenario('checkNumberRecycling_400.2_no_request_body', async () => {
    expectErrorInfo(await check(undefined), 400, 'INVALID_ARGUMENT');
    expectErrorInfo(await c.call(CHECK, undefined, { token, contentType: null }), 400, 'INVALID_ARGUMENT');
  });

  scenario('checkNumberRecycling_400.3_empty_request_body', async () => {
    expectErrorInfo(await check({}), 400, 'INVALID_ARGUMENT');
  });

  scenario('checkNumberRecycling_400.4_out_of_range', async () => {
    for (const specifiedDate of [isoDate(Date.now() + 2 * D), '2999-01-01']) {
      expectErrorInfo(await check({ phoneNumber: '+255712000001', specifiedDate }), 400, 'OUT_OF_RANGE');
    }
  });

  scenario('checkNumberRecycling_400.5_invalid_argument', async () => {
    for (const body of ['["2023-07-03"]', '"2023-07-03"', '{"specifiedDate":', { specifiedDate: '2023-07-03', phoneNumber: '+255712000001', extra: 1 }]) {
      expectErrorInfo(await check(body), 400, 'INVALID_ARGUMENT');
    }
  });

  scenario('checkNumberRecycling_401.1_expired_access_token', async () => {
    expectErrorInfo(await check({ phoneNumber: '+255712000001', specifiedDate: '2020-01-01' }, await c.tokens.expired({ scope: 'number-recycling:check' })), 401, 'UNAUTHENTICATED');
  });

  scenario('checkNumberRecycling_401.2_invalid_access_token', async () => {
    for (const t of ['eyJhbGciOiJub25lIn0.eyJzY29wZSI6Im51bWJlci1yZWN5Y2xpbmc6Y2hlY2sifQ.', `${token}x`]) {
      expectErrorInfo(await check({ phoneNumber: '+255712000001', specifiedDate: '2020-01-01' }, t), 401, 'UNAUTHENTICATED');
    }
  });

  scenario('checkNumberRecycling_401.3_no_header_authorization', async () => {
    expectErrorInfo(await check({ phoneNumber: '+255712000001', specifiedDate: '2020-01-01' }, null), 401, 'UNAUTHENTICATED');
  });

  scenario('checkNumberRecycling_403.1_invalid_token_permissions', async () => {
    const other = await c.tokens.twoLegged({ scope: 'sim-swap kyc-tenure:check-tenure' });
    expectErrorInfo(await check({ phoneNumber: '+255712000001', specifiedDate: '2020-01-01' }, other), 403, 'PERMISSION_DENIED');
  });

  scenario('checkNumberRecycling_C02.01_phone_number_not_schema_compliant', async () => {
    for (const phoneNumber of ['+25571200000a', '255712000001', 42]) {
      expectErrorInfo(await check({ phoneNumber, specifiedDate: '2020-01-01' }), 400, 'INVALID_ARGUMENT');
    }
  });

  scenario('checkNumberRecycling_C02.03_unnecessary_phone_number', async () => {
    const three = await c.tokens.threeLegged('+255712000001', { scope: 'number-recycling:check' });
    expectErrorInfo(await check({ phoneNumber: '+255712000001', specifiedDate: '2020-01-01' }, three), 422, 'UNNECESSARY_IDENTIFIER');
  });

  scenario('checkNumberRecycling_C02.04_missing_phone_number', async () => {
    expectErrorInfo(await check({ specifiedDate: '2020-01-01' }), 422, 'MISSING_IDENTIFIER');
  });

  scenario('checkNumberRecycling_C02.05_phone_number_not_supported', async () => {
    expectErrorInfo(await check({ phoneNumber: '+33612345678', specifiedDate: '2020-01-01' }), 422, 'SERVICE_NOT_APPLICABLE');
  });

  it('when the scenarios are listed, then every scenario tag of the feature file is tested, and no tag it does not have', () => {
    expect([...new Set(featureTags(FEATURES))].sort()).toEqual([...tested].sort());
  });
});
