import { CamaraHarness, CamaraReply as Reply, startCamaraHarness } from '../support/camara-harness';

/*
 * SIM Swap 2.1.0 and KYC Tenure 0.2.0 beyond their official scenarios, which the conformance kit
 * runs as they are (docs/conformance.md): window boundaries on fresh subscribers, more values per
 * rule, both token kinds, the TIMEZONE offset, contract types, a monitored period, a number
 * without a SIM. Every reply is validated against sim-swap.yaml / kyc-tenure.yaml by the harness.
 */

const CHECK = '/sim-swap/v2/check';
const RETRIEVE = '/sim-swap/v2/retrieve-date';
const TENURE = '/kyc-tenure/v0.2/check-tenure';
const H = 3_600_000;
const D = 24 * H;
const MONITORED_DAYS = 30;

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

describe('SIM Swap and KYC Tenure: checks beyond the official scenarios', () => {
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
    it('when a never-swapped line is checked by number or by a three-legged token, then swapped false and the correlator echoed', async () => {
      for (const token of [c.token, await c.tokens.threeLegged('+255712000001', { scope: 'sim-swap:check' })]) {
        const r = await c.call(CHECK, token === c.token ? { phoneNumber: '+255712000001' } : {}, { token, headers: { 'x-correlator': 'b4333c46-49c0-4f62-80d7-f0ef930f1c46' } });
        expect(r.status).toBe(200);
        expectCorrelated(r, 'b4333c46-49c0-4f62-80d7-f0ef930f1c46');
        expect(r.body).toEqual({ swapped: false });
      }
    });


    describe.each([260, 120, 24, 12])('with hours = %i', (hours) => {
      it('when the swap was an hour inside maxAge, then swapped true, for maxAge and beyond', async () => {
        const phoneNumber = upsert(c, { lastSimSwapAt: `now-${hours - 1}h`, activatedAt: 'now-900d' });
        for (const maxAge of [hours, Math.min(2400, hours + 100)]) {
          const r = await c.call(CHECK, { phoneNumber, maxAge });
          expect([maxAge, r.status, r.body]).toEqual([maxAge, 200, { swapped: true }]);
        }
      });
    });

    it('when the last swap was over 240 h ago and maxAge is not sent, then swapped false', async () => {
      const phoneNumber = upsert(c, { lastSimSwapAt: 'now-241h', activatedAt: 'now-900d' });
      for (const p of [phoneNumber, '+255712000007']) {
        const r = await c.call(CHECK, { phoneNumber: p });
        expect([p, r.status, r.body]).toEqual([p, 200, { swapped: false }]);
      }
    });

    it('when the swap is just outside maxAge, then false; just inside, true', async () => {
      const phoneNumber = upsert(c, { lastSimSwapAt: 'now-50h', activatedAt: 'now-900d' });
      const r = await c.call(CHECK, { phoneNumber, maxAge: 49 });
      expect([r.status, r.body]).toEqual([200, { swapped: false }]);
      // The same line within the window: the answer above is the window's doing.
      expect((await c.call(CHECK, { phoneNumber, maxAge: 51 })).body).toEqual({ swapped: true });
    });

    it('when the line was never swapped and activated over 240 h ago, then swapped false', async () => {
      const phoneNumber = upsert(c, { lastSimSwapAt: null, activatedAt: 'now-241h' });
      for (const p of [phoneNumber, '+255712000001']) {
        const r = await c.call(CHECK, { phoneNumber: p });
        expect([p, r.status, r.body]).toEqual([p, 200, { swapped: false }]);
      }
    });

    describe.each([260, 120, 24, 12])('with hours = %i', (hours) => {
      it('when the line was never swapped, then false before its activation and true for a window that reaches it', async () => {
        const phoneNumber = upsert(c, { lastSimSwapAt: null, activatedAt: `now-${hours + 1}h` });
        const r = await c.call(CHECK, { phoneNumber, maxAge: hours - 1 });
        expect([r.status, r.body]).toEqual([200, { swapped: false }]);
        // A new line counts as a swap (sim-swap.yaml): within a window that reaches its activation it is swapped.
        expect((await c.call(CHECK, { phoneNumber, maxAge: hours + 2 })).body).toEqual({ swapped: true });
      });
    });



    it('when the token is not a JWT or its signature is altered, then 401 UNAUTHENTICATED', async () => {
      const [h, p] = c.token.split('.');
      for (const token of ['not-a-jwt', `${h}.${p}.AAAA`, `${c.token.slice(0, -4)}AAAA`]) {
        expectErrorInfo(await c.call(CHECK, { phoneNumber: '+255712000001' }, { token }), 401, 'UNAUTHENTICATED');
      }
    });

    it('when maxAge is not an integer (a string, a fraction, null, a boolean, an array, an object), then 400 INVALID_ARGUMENT', async () => {
      for (const maxAge of ['240', 1.5, null, true, [24], { h: 1 }]) {
        expectErrorInfo(await c.call(CHECK, { phoneNumber: '+255712000001', maxAge }), 400, 'INVALID_ARGUMENT');
      }
    });

    it('when maxAge is outside 1–2400, then 400 OUT_OF_RANGE', async () => {
      for (const maxAge of [100000, 2401, 0, -1]) {
        expectErrorInfo(await c.call(CHECK, { phoneNumber: '+255712000001', maxAge }), 400, 'OUT_OF_RANGE');
      }
    });

    it('when maxAge is beyond SIM_SWAP_MONITORED_DAYS, then 400 OUT_OF_RANGE naming the period; at it, answered', async () => {
      const r = await limited.call(CHECK, { phoneNumber: '+255712000001', maxAge: MONITORED_DAYS * 24 + 1 });
      expectErrorInfo(r, 400, 'OUT_OF_RANGE');
      expect((r.body as { message: string }).message).toContain(`${MONITORED_DAYS} days`);
      expect((await limited.call(CHECK, { phoneNumber: '+255712000001', maxAge: MONITORED_DAYS * 24 })).status).toBe(200);
    });

    it('when phoneNumber is not E.164 (no +, leading 0, short, long, tel: URI, a number, null), then 400 INVALID_ARGUMENT', async () => {
      for (const phoneNumber of ['255712000001', '+0255712000001', '+2557', '+2557120000012345', 'tel:+255712000001', 255712000001, null]) {
        expectErrorInfo(await c.call(CHECK, { phoneNumber }), 400, 'INVALID_ARGUMENT');
      }
    });

    it('when the number is no subscriber, terminated or impossible in the plan, then 404 IDENTIFIER_NOT_FOUND', async () => {
      for (const phoneNumber of ['+255712999999', '+255712000004', '+2557120000']) {
        expectErrorInfo(await c.call(CHECK, { phoneNumber }), 404, 'IDENTIFIER_NOT_FOUND');
      }
    });


    it('when only maxAge is sent with a two-legged token, then 422 MISSING_IDENTIFIER', async () => {
      expectErrorInfo(await c.call(CHECK, { maxAge: 24 }), 422, 'MISSING_IDENTIFIER');
    });

    it("when another country's number is sent or named by the token, then 422 SERVICE_NOT_APPLICABLE", async () => {
      expectErrorInfo(await c.call(CHECK, { phoneNumber: '+254712000001' }), 422, 'SERVICE_NOT_APPLICABLE');
      const token = await c.tokens.threeLegged('+4915112345678', { scope: 'sim-swap:check' });
      expectErrorInfo(await c.call(CHECK, {}, { token }), 422, 'SERVICE_NOT_APPLICABLE');
    });
  });

  describe('retrieveSimSwapDate (sim-swap-retrieveSimSwapDate.feature)', () => {
    it('when the date is retrieved by number or by a three-legged token, then only latestSimChange, and an odd correlator echoed', async () => {
      const token = await c.tokens.threeLegged('+255712000006', { scope: 'sim-swap:retrieve-date' });
      for (const [body, t] of [[{ phoneNumber: '+255712000006' }, c.token], [{}, token]] as const) {
        const r = await c.call(RETRIEVE, body, { token: t, headers: { 'x-correlator': 'corr:1;a.b/<c>{d}_e-f' } });
        expect(r.status).toBe(200);
        expectCorrelated(r, 'corr:1;a.b/<c>{d}_e-f');
        expect(Object.keys(r.body as object)).toEqual(['latestSimChange']);
      }
    });

    it("when the SIM was swapped, then the swap's instant, in RFC 3339 with the TIMEZONE offset", async () => {
      const r = await c.call(RETRIEVE, { phoneNumber: '+255712000006' });
      expect(r.status).toBe(200);
      const { lastSimSwapAt } = await simFacts('255712000006');
      // RFC 3339 with the TIMEZONE offset (Africa/Dar_es_Salaam), never Z.
      expect(latestOf(r)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+03:00$/);
      expect(Date.parse(latestOf(r))).toBe(Date.parse(lastSimSwapAt!));
    });

    it("when the SIM was never swapped, then the SIM's activation instant", async () => {
      const r = await c.call(RETRIEVE, { phoneNumber: '+255712000001' });
      expect(r.status).toBe(200);
      const facts = await simFacts('255712000001');
      expect(facts.lastSimSwapAt).toBeNull();
      expect(Date.parse(latestOf(r))).toBe(Date.parse(facts.simActivatedAt!));
      expect(Date.now() - Date.parse(latestOf(r))).toBeGreaterThan(1000 * D);
    });

    it('when the number never had a SIM, then latestSimChange null', async () => {
      const phoneNumber = upsert(c, { lastSimSwapAt: null, activatedAt: 'now-10d', simActivatedAt: null });
      const r = await c.call(RETRIEVE, { phoneNumber });
      expect([r.status, r.body]).toEqual([200, { latestSimChange: null }]);
    });

    it('when the swap is before SIM_SWAP_MONITORED_DAYS, then null with monitoredPeriod; within it, the date', async () => {
      const r = await limited.call(RETRIEVE, { phoneNumber: '+255712000007' });
      expect([r.status, r.body]).toEqual([200, { latestSimChange: null, monitoredPeriod: MONITORED_DAYS }]);
      // Within the monitored period the date is given.
      expect(latestOf(await limited.call(RETRIEVE, { phoneNumber: '+255712000006' }))).toMatch(/^\d{4}-/);
    });



    it('when retrieve-date gets a malformed or altered token, then 401 UNAUTHENTICATED', async () => {
      for (const token of ['x.y.z', `${c.token}x`]) {
        expectErrorInfo(await c.call(RETRIEVE, { phoneNumber: '+255712000001' }, { token }), 401, 'UNAUTHENTICATED');
      }
    });

    it('when retrieve-date gets a phoneNumber that is not E.164, then 400 INVALID_ARGUMENT', async () => {
      for (const phoneNumber of ['0712000001', '+255 712 000 001', '', 42]) {
        expectErrorInfo(await c.call(RETRIEVE, { phoneNumber }), 400, 'INVALID_ARGUMENT');
      }
    });


    it('when a three-legged token names one number and the body another, then 422 UNNECESSARY_IDENTIFIER', async () => {
      const token = await c.tokens.threeLegged('+255712000001', { scope: 'sim-swap:retrieve-date' });
      expectErrorInfo(await c.call(RETRIEVE, { phoneNumber: '+255712000002' }, { token }), 422, 'UNNECESSARY_IDENTIFIER');
    });


  });

  describe('checkTenure (kyc-tenure.feature)', () => {
    it('when the tenure began before tenureDate, then true with the contract type of each payment type (PAYG, PAYM, Business), two- and three-legged', async () => {
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

    it('when the tenure began after tenureDate or its start is unknown, then false with the contract type', async () => {
      const unknown = upsert(c, { activatedAt: null, paymentType: 'postpaid' });
      for (const [phoneNumber, contractType] of [['+255712000010', 'PAYG'], [unknown, 'PAYM']]) {
        const r = await c.call(TENURE, { phoneNumber, tenureDate: isoDate(Date.now() - 30 * D) }, { headers: { 'x-correlator': 'tenure-2' } });
        expect(r.status).toBe(200);
        expectCorrelated(r, 'tenure-2');
        expect(r.body).toEqual({ tenureDateCheck: false, contractType });
      }
    });

    it('when the tenure body is missing, with or without a Content-Type, then 400 INVALID_ARGUMENT', async () => {
      expectErrorInfo(await c.call(TENURE, undefined), 400, 'INVALID_ARGUMENT');
      expectErrorInfo(await c.call(TENURE, undefined, { contentType: null }), 400, 'INVALID_ARGUMENT');
    });


    it('when tenureDate is after today, near or far, then 400 OUT_OF_RANGE', async () => {
      for (const tenureDate of [isoDate(Date.now() + 2 * D), '2999-01-01']) {
        expectErrorInfo(await c.call(TENURE, { phoneNumber: '+255712000001', tenureDate }), 400, 'OUT_OF_RANGE');
      }
    });

    it('when tenureDate is not a real YYYY-MM-DD day or the body is not an object, then 400 INVALID_ARGUMENT', async () => {
      for (const tenureDate of ['2023/07/03', '2023-07-03T00:00:00Z', '2023-02-29', '03-07-2023', 20230703, null, '']) {
        expectErrorInfo(await c.call(TENURE, { phoneNumber: '+255712000001', tenureDate }), 400, 'INVALID_ARGUMENT');
      }
      expectErrorInfo(await c.call(TENURE, '["2023-07-03"]'), 400, 'INVALID_ARGUMENT');
    });


    it('when the tenure token is unsigned (alg none), then 401 UNAUTHENTICATED', async () => {
      expectErrorInfo(await c.call(TENURE, { phoneNumber: '+255712000001', tenureDate: '2020-01-01' }, { token: 'eyJhbGciOiJub25lIn0.eyJzY29wZSI6Imt5Yy10ZW51cmU6Y2hlY2stdGVudXJlIn0.' }), 401, 'UNAUTHENTICATED');
    });



    it('when the tenure number is no subscriber or terminated, then 404 IDENTIFIER_NOT_FOUND', async () => {
      expectErrorInfo(await c.call(TENURE, { phoneNumber: '+255712999998', tenureDate: '2020-01-01' }), 404, 'IDENTIFIER_NOT_FOUND');
      expectErrorInfo(await c.call(TENURE, { phoneNumber: '+255712000004', tenureDate: '2020-01-01' }), 404, 'IDENTIFIER_NOT_FOUND');
    });



  });

});
