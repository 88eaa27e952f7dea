import { readFileSync } from 'node:fs';
import { CamaraHarness, CamaraReply as Reply, startCamaraHarness } from '../support/camara-harness';
import { camaraFile } from '../support/camara-spec';

/*
 * Conformance: every scenario of the three official .feature files
 * (read from ../shared/camara at run time) is one test named after its tag, run against the
 * real server and simulator with real access tokens. Every reply is validated against the
 * official sim-swap.yaml / kyc-tenure.yaml by the harness. The inventory test at the end
 * fails when a feature file has a tag this suite does not test.
 */

const FEATURES = ['sim-swap-checkSimSwap.feature', 'sim-swap-retrieveSimSwapDate.feature', 'kyc-tenure.feature'];
const CHECK = '/sim-swap/v2/check';
const RETRIEVE = '/sim-swap/v2/retrieve-date';
const TENURE = '/kyc-tenure/v0.2/check-tenure';
const H = 3_600_000;
const D = 24 * H;
const MONITORED_DAYS = 30;

function featureTags(): string[] {
  return FEATURES.flatMap((f) => [...readFileSync(camaraFile(f), 'utf8').matchAll(/^\s*@(\S+)\s*$/gm)].map((m) => m[1]));
}

const tested = new Set<string>();
/** One conformance case, named exactly after its scenario tag. */
function scenario(tag: string, fn: () => Promise<void>): void {
  tested.add(tag);
  it(tag, fn);
}

let seq = 0;
/** A fresh subscriber number for a scenario's own facts. */
const freshNumber = () => `25571210${String(++seq).padStart(4, '0')}`;

function expectErrorInfo(r: Reply, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(r.body).toEqual({ status, code, message: expect.any(String) as unknown });
  expect((r.body as { message: string }).message.length).toBeGreaterThan(10);
}

function expectCorrelated(r: Reply, correlator: string): void {
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(r.headers.get('x-correlator')).toBe(correlator);
}

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** retrieve-date's answer, as a string for the date checks below. */
const latestOf = (r: Reply) => String((r.body as { latestSimChange: string | null }).latestSimChange);

describe('CAMARA conformance: the official scenarios', () => {
  let c: CamaraHarness;
  /** The same service with SIM_SWAP_MONITORED_DAYS set: the scenarios for a limited history. */
  let limited: CamaraHarness;

  beforeAll(async () => {
    c = await startCamaraHarness({ env: { TIMEZONE: 'Africa/Dar_es_Salaam' } });
    limited = await startCamaraHarness({ env: { SIM_SWAP_MONITORED_DAYS: String(MONITORED_DAYS) } });
  });
  afterAll(async () => {
    await c?.close();
    await limited?.close();
  });

  /** Facts of one number straight from the simulator, to compare the service's answer with. */
  const simFacts = async (msisdn: string) =>
    (await (await fetch(`${c.h.simUrl}/sim/subscribers/${msisdn}/sim`)).json()) as { lastSimSwapAt: string | null; simActivatedAt: string | null };

  const upsert = (t: CamaraHarness, fields: { lastSimSwapAt?: string | null; activatedAt?: string | null; simActivatedAt?: string | null; paymentType?: 'prepaid' | 'postpaid' | 'business' }) => {
    const msisdn = freshNumber();
    t.h.sim.upsert({ msisdn, status: 'active', paymentType: fields.paymentType ?? 'prepaid', iccid: `89255000000${msisdn.slice(-8)}`, lastSimSwapAt: null, ...fields });
    return `+${msisdn}`;
  };

  describe('checkSimSwap (sim-swap-checkSimSwap.feature)', () => {
    scenario('check_sim_swap_1_generic_success_scenario', async () => {
      for (const token of [c.token, await c.tokens.threeLegged('+255712000001', { scope: 'sim-swap:check' })]) {
        const r = await c.call(CHECK, token === c.token ? { phoneNumber: '+255712000001' } : {}, { token, headers: { 'x-correlator': 'b4333c46-49c0-4f62-80d7-f0ef930f1c46' } });
        expect(r.status).toBe(200);
        expectCorrelated(r, 'b4333c46-49c0-4f62-80d7-f0ef930f1c46');
        expect(r.body).toEqual({ swapped: false });
      }
    });

    scenario('check_sim_swap_2_valid_sim_swap_no_max_age', async () => {
      const r = await c.call(CHECK, { phoneNumber: '+255712000006' });
      expect([r.status, r.body]).toEqual([200, { swapped: true }]);
    });

    describe.each([260, 120, 24, 12])('with hours = %i', (hours) => {
      scenario(`check_sim_swap_3_valid_sim_swap_max_age`, async () => {
        const phoneNumber = upsert(c, { lastSimSwapAt: `now-${hours - 1}h`, activatedAt: 'now-900d' });
        for (const maxAge of [hours, Math.min(2400, hours + 100)]) {
          const r = await c.call(CHECK, { phoneNumber, maxAge });
          expect([maxAge, r.status, r.body]).toEqual([maxAge, 200, { swapped: true }]);
        }
      });
    });

    scenario('check_sim_swap_4_more_than_240_hours', async () => {
      const phoneNumber = upsert(c, { lastSimSwapAt: 'now-241h', activatedAt: 'now-900d' });
      for (const p of [phoneNumber, '+255712000007']) {
        const r = await c.call(CHECK, { phoneNumber: p });
        expect([p, r.status, r.body]).toEqual([p, 200, { swapped: false }]);
      }
    });

    scenario('check_sim_swap_5_out_of_max_age', async () => {
      const phoneNumber = upsert(c, { lastSimSwapAt: 'now-50h', activatedAt: 'now-900d' });
      const r = await c.call(CHECK, { phoneNumber, maxAge: 49 });
      expect([r.status, r.body]).toEqual([200, { swapped: false }]);
      // The same line within the window: the answer above is the window's doing.
      expect((await c.call(CHECK, { phoneNumber, maxAge: 51 })).body).toEqual({ swapped: true });
    });

    scenario('check_sim_swap_6_no_sim_swap_no_max_age', async () => {
      const phoneNumber = upsert(c, { lastSimSwapAt: null, activatedAt: 'now-241h' });
      for (const p of [phoneNumber, '+255712000001']) {
        const r = await c.call(CHECK, { phoneNumber: p });
        expect([p, r.status, r.body]).toEqual([p, 200, { swapped: false }]);
      }
    });

    describe.each([260, 120, 24, 12])('with hours = %i', (hours) => {
      scenario('check_sim_swap_7_no_sim_swap_with_max_age', async () => {
        const phoneNumber = upsert(c, { lastSimSwapAt: null, activatedAt: `now-${hours + 1}h` });
        const r = await c.call(CHECK, { phoneNumber, maxAge: hours - 1 });
        expect([r.status, r.body]).toEqual([200, { swapped: false }]);
        // A new line counts as a swap (sim-swap.yaml): within a window that reaches its activation it is swapped.
        expect((await c.call(CHECK, { phoneNumber, maxAge: hours + 2 })).body).toEqual({ swapped: true });
      });
    });

    scenario('check_sim_swap_401.1_no_authorization_header', async () => {
      expectErrorInfo(await c.call(CHECK, { phoneNumber: '+255712000001' }, { token: null }), 401, 'UNAUTHENTICATED');
    });

    scenario('check_sim_swap_401.2_expired_access_token', async () => {
      expectErrorInfo(await c.call(CHECK, { phoneNumber: '+255712000001' }, { token: await c.tokens.expired() }), 401, 'UNAUTHENTICATED');
    });

    scenario('check_sim_swap_401.3_invalid_access_token', async () => {
      const [h, p] = c.token.split('.');
      for (const token of ['not-a-jwt', `${h}.${p}.AAAA`, `${c.token.slice(0, -4)}AAAA`]) {
        expectErrorInfo(await c.call(CHECK, { phoneNumber: '+255712000001' }, { token }), 401, 'UNAUTHENTICATED');
      }
    });

    scenario('check_sim_swap_400.1_invalid_max_age', async () => {
      for (const maxAge of ['240', 1.5, null, true, [24], { h: 1 }]) {
        expectErrorInfo(await c.call(CHECK, { phoneNumber: '+255712000001', maxAge }), 400, 'INVALID_ARGUMENT');
      }
    });

    scenario('check_sim_swap_400.2_invalid_max_age_value', async () => {
      for (const maxAge of [100000, 2401, 0, -1]) {
        expectErrorInfo(await c.call(CHECK, { phoneNumber: '+255712000001', maxAge }), 400, 'OUT_OF_RANGE');
      }
    });

    scenario('check_sim_swap_400.3_max_age_out_of_monitored_period', async () => {
      const r = await limited.call(CHECK, { phoneNumber: '+255712000001', maxAge: MONITORED_DAYS * 24 + 1 });
      expectErrorInfo(r, 400, 'OUT_OF_RANGE');
      expect((r.body as { message: string }).message).toContain(`${MONITORED_DAYS} days`);
      expect((await limited.call(CHECK, { phoneNumber: '+255712000001', maxAge: MONITORED_DAYS * 24 })).status).toBe(200);
    });

    scenario('check_sim_swap_C02.01_phone_number_not_schema_compliant', async () => {
      for (const phoneNumber of ['255712000001', '+0255712000001', '+2557', '+2557120000012345', 'tel:+255712000001', 255712000001, null]) {
        expectErrorInfo(await c.call(CHECK, { phoneNumber }), 400, 'INVALID_ARGUMENT');
      }
    });

    scenario('check_sim_swap_C02.02_phone_number_not_found', async () => {
      for (const phoneNumber of ['+255712999999', '+255712000004', '+2557120000']) {
        expectErrorInfo(await c.call(CHECK, { phoneNumber }), 404, 'IDENTIFIER_NOT_FOUND');
      }
    });

    scenario('check_sim_swap_C02.03_unnecessary_phone_number', async () => {
      const token = await c.tokens.threeLegged('+255712000001', { scope: 'sim-swap:check' });
      expectErrorInfo(await c.call(CHECK, { phoneNumber: '+255712000001' }, { token }), 422, 'UNNECESSARY_IDENTIFIER');
    });

    scenario('check_sim_swap_C02.04_missing_phone_number', async () => {
      expectErrorInfo(await c.call(CHECK, { maxAge: 24 }), 422, 'MISSING_IDENTIFIER');
    });

    scenario('check_sim_swap_C02.05_phone_number_not_supported', async () => {
      expectErrorInfo(await c.call(CHECK, { phoneNumber: '+254712000001' }), 422, 'SERVICE_NOT_APPLICABLE');
      const token = await c.tokens.threeLegged('+4915112345678', { scope: 'sim-swap:check' });
      expectErrorInfo(await c.call(CHECK, {}, { token }), 422, 'SERVICE_NOT_APPLICABLE');
    });
  });

  describe('retrieveSimSwapDate (sim-swap-retrieveSimSwapDate.feature)', () => {
    scenario('retrieve_sim_swap_date_1_generic_success_scenario', async () => {
      const token = await c.tokens.threeLegged('+255712000006', { scope: 'sim-swap:retrieve-date' });
      for (const [body, t] of [[{ phoneNumber: '+255712000006' }, c.token], [{}, token]] as const) {
        const r = await c.call(RETRIEVE, body, { token: t, headers: { 'x-correlator': 'corr:1;a.b/<c>{d}_e-f' } });
        expect(r.status).toBe(200);
        expectCorrelated(r, 'corr:1;a.b/<c>{d}_e-f');
        expect(Object.keys(r.body as object)).toEqual(['latestSimChange']);
      }
    });

    scenario('retrieve_sim_swap_date_2_valid_sim_swap', async () => {
      const r = await c.call(RETRIEVE, { phoneNumber: '+255712000006' });
      expect(r.status).toBe(200);
      const { lastSimSwapAt } = await simFacts('255712000006');
      // RFC 3339 with the TIMEZONE offset (Africa/Dar_es_Salaam), never Z.
      expect(latestOf(r)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+03:00$/);
      expect(Date.parse(latestOf(r))).toBe(Date.parse(lastSimSwapAt!));
    });

    scenario('retrieve_sim_swap_date_3_no_sim_swap_returns_activation_date', async () => {
      const r = await c.call(RETRIEVE, { phoneNumber: '+255712000001' });
      expect(r.status).toBe(200);
      const facts = await simFacts('255712000001');
      expect(facts.lastSimSwapAt).toBeNull();
      expect(Date.parse(latestOf(r))).toBe(Date.parse(facts.simActivatedAt!));
      expect(Date.now() - Date.parse(latestOf(r))).toBeGreaterThan(1000 * D);
    });

    scenario('retrieve_sim_swap_date_4_sim_never_associated', async () => {
      const phoneNumber = upsert(c, { lastSimSwapAt: null, activatedAt: 'now-10d', simActivatedAt: null });
      const r = await c.call(RETRIEVE, { phoneNumber });
      expect([r.status, r.body]).toEqual([200, { latestSimChange: null }]);
    });

    scenario('retrieve_sim_swap_date_5_no_sim_swap_or_activation_date_due_to_legal_constrain', async () => {
      const r = await limited.call(RETRIEVE, { phoneNumber: '+255712000007' });
      expect([r.status, r.body]).toEqual([200, { latestSimChange: null, monitoredPeriod: MONITORED_DAYS }]);
      // Within the monitored period the date is given.
      expect(latestOf(await limited.call(RETRIEVE, { phoneNumber: '+255712000006' }))).toMatch(/^\d{4}-/);
    });

    scenario('retrieve_sim_swap_date_401.1_no_authorization_header', async () => {
      expectErrorInfo(await c.call(RETRIEVE, { phoneNumber: '+255712000001' }, { token: null }), 401, 'UNAUTHENTICATED');
    });

    scenario('retrieve_sim_swap_date_401.2_expired_access_token', async () => {
      expectErrorInfo(await c.call(RETRIEVE, { phoneNumber: '+255712000001' }, { token: await c.tokens.expired() }), 401, 'UNAUTHENTICATED');
    });

    scenario('retrieve_sim_swap_date_401.3_invalid_access_token', async () => {
      for (const token of ['x.y.z', `${c.token}x`]) {
        expectErrorInfo(await c.call(RETRIEVE, { phoneNumber: '+255712000001' }, { token }), 401, 'UNAUTHENTICATED');
      }
    });

    scenario('retrieve_sim_swap_date_C02.01_phone_number_not_schema_compliant', async () => {
      for (const phoneNumber of ['0712000001', '+255 712 000 001', '', 42]) {
        expectErrorInfo(await c.call(RETRIEVE, { phoneNumber }), 400, 'INVALID_ARGUMENT');
      }
    });

    scenario('retrieve_sim_swap_date_C02.02_phone_number_not_found', async () => {
      expectErrorInfo(await c.call(RETRIEVE, { phoneNumber: '+255799999999' }), 404, 'IDENTIFIER_NOT_FOUND');
    });

    scenario('retrieve_sim_swap_date_C02.03_unnecessary_phone_number', async () => {
      const token = await c.tokens.threeLegged('+255712000001', { scope: 'sim-swap:retrieve-date' });
      expectErrorInfo(await c.call(RETRIEVE, { phoneNumber: '+255712000002' }, { token }), 422, 'UNNECESSARY_IDENTIFIER');
    });

    scenario('retrieve_sim_swap_date_C02.04_missing_phone_number', async () => {
      expectErrorInfo(await c.call(RETRIEVE, {}), 422, 'MISSING_IDENTIFIER');
    });

    scenario('retrieve_sim_swap_date_C02.05_phone_number_not_supported', async () => {
      expectErrorInfo(await c.call(RETRIEVE, { phoneNumber: '+14155550100' }), 422, 'SERVICE_NOT_APPLICABLE');
    });
  });

  describe('checkTenure (kyc-tenure.feature)', () => {
    scenario('checkTenure_1_tenure_check_true', async () => {
      const token = await c.tokens.threeLegged('+255712000009', { scope: 'kyc-tenure:check-tenure' });
      const cases: [object, string | null, string][] = [
        [{ phoneNumber: '+255712000001', tenureDate: isoDate(Date.now() - 1000 * D) }, c.token, 'PAYG'],
        [{ phoneNumber: '+255712000002', tenureDate: isoDate(Date.now() - 300 * D) }, c.token, 'PAYM'],
        [{ tenureDate: isoDate(Date.now() - 2000 * D) }, token, 'Business'],
      ];
      for (const [body, t, contractType] of cases) {
        const r = await c.call(TENURE, body, { token: t, headers: { 'x-correlator': 'tenure-1' } });
        expect(r.status).toBe(200);
        expectCorrelated(r, 'tenure-1');
        expect(r.body).toEqual({ tenureDateCheck: true, contractType });
      }
    });

    scenario('checkTenure_2_tenure_check_false', async () => {
      const unknown = upsert(c, { activatedAt: null, paymentType: 'postpaid' });
      for (const [phoneNumber, contractType] of [['+255712000010', 'PAYG'], [unknown, 'PAYM']]) {
        const r = await c.call(TENURE, { phoneNumber, tenureDate: isoDate(Date.now() - 30 * D) }, { headers: { 'x-correlator': 'tenure-2' } });
        expect(r.status).toBe(200);
        expectCorrelated(r, 'tenure-2');
        expect(r.body).toEqual({ tenureDateCheck: false, contractType });
      }
    });

    scenario('checkTenure_400.1_no_request_body', async () => {
      expectErrorInfo(await c.call(TENURE, undefined), 400, 'INVALID_ARGUMENT');
      expectErrorInfo(await c.call(TENURE, undefined, { contentType: null }), 400, 'INVALID_ARGUMENT');
    });

    scenario('checkTenure_400.2_empty_request_body', async () => {
      expectErrorInfo(await c.call(TENURE, {}), 400, 'INVALID_ARGUMENT');
    });

    scenario('checkTenure_400.3_out_of_range', async () => {
      for (const tenureDate of [isoDate(Date.now() + 2 * D), '2999-01-01']) {
        expectErrorInfo(await c.call(TENURE, { phoneNumber: '+255712000001', tenureDate }), 400, 'OUT_OF_RANGE');
      }
    });

    scenario('checkTenure_400.4_invalid_argument', async () => {
      for (const tenureDate of ['2023/07/03', '2023-07-03T00:00:00Z', '2023-02-29', '03-07-2023', 20230703, null, '']) {
        expectErrorInfo(await c.call(TENURE, { phoneNumber: '+255712000001', tenureDate }), 400, 'INVALID_ARGUMENT');
      }
      expectErrorInfo(await c.call(TENURE, '["2023-07-03"]'), 400, 'INVALID_ARGUMENT');
    });

    scenario('checkTenure_401.1_expired_access_token', async () => {
      expectErrorInfo(await c.call(TENURE, { phoneNumber: '+255712000001', tenureDate: '2020-01-01' }, { token: await c.tokens.expired() }), 401, 'UNAUTHENTICATED');
    });

    scenario('checkTenure_401.2_invalid_access_token', async () => {
      expectErrorInfo(await c.call(TENURE, { phoneNumber: '+255712000001', tenureDate: '2020-01-01' }, { token: 'eyJhbGciOiJub25lIn0.eyJzY29wZSI6Imt5Yy10ZW51cmU6Y2hlY2stdGVudXJlIn0.' }), 401, 'UNAUTHENTICATED');
    });

    scenario('checkTenure_401.3_no_header_authorization', async () => {
      expectErrorInfo(await c.call(TENURE, { phoneNumber: '+255712000001', tenureDate: '2020-01-01' }, { token: null }), 401, 'UNAUTHENTICATED');
    });

    scenario('checkTenure_C02.01_phone_number_not_schema_compliant', async () => {
      expectErrorInfo(await c.call(TENURE, { phoneNumber: '+25571200000a', tenureDate: '2020-01-01' }), 400, 'INVALID_ARGUMENT');
    });

    scenario('checkTenure_C02.02_phone_number_not_found', async () => {
      expectErrorInfo(await c.call(TENURE, { phoneNumber: '+255712999998', tenureDate: '2020-01-01' }), 404, 'IDENTIFIER_NOT_FOUND');
      expectErrorInfo(await c.call(TENURE, { phoneNumber: '+255712000004', tenureDate: '2020-01-01' }), 404, 'IDENTIFIER_NOT_FOUND');
    });

    scenario('checkTenure_C02.03_unnecessary_phone_number', async () => {
      const token = await c.tokens.threeLegged('+255712000001', { scope: 'kyc-tenure:check-tenure' });
      expectErrorInfo(await c.call(TENURE, { phoneNumber: '+255712000001', tenureDate: '2020-01-01' }, { token }), 422, 'UNNECESSARY_IDENTIFIER');
    });

    scenario('checkTenure_C02.04_missing_phone_number', async () => {
      expectErrorInfo(await c.call(TENURE, { tenureDate: '2020-01-01' }), 422, 'MISSING_IDENTIFIER');
    });

    scenario('checkTenure_C02.05_phone_number_not_supported', async () => {
      expectErrorInfo(await c.call(TENURE, { phoneNumber: '+33612345678', tenureDate: '2020-01-01' }), 422, 'SERVICE_NOT_APPLICABLE');
    });
  });

  it('when the scenarios are listed, then every scenario tag of the three feature files is tested, and no tag they do not have', () => {
    const tags = featureTags();
    expect(new Set(tags).size).toBe(45);
    expect([...new Set(tags)].sort()).toEqual([...tested].sort());
  });
});
