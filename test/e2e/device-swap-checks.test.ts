import { CamaraHarness, CamaraReply as Reply, startCamaraHarness } from '../support/camara-harness';
import { expectCorrelated, expectErrorInfo, subscriberWith, SignalFacts } from '../support/camara-scenarios';

/*
 * Device Swap 1.0.0 (CONTRACT §11) beyond its official scenarios, which the conformance kit runs
 * as they are (docs/conformance.md): boundaries of each window, more values per rule, both token
 * kinds, the TIMEZONE offset, a monitored period. Every reply is validated against
 * device-swap.yaml by the harness.
 */

const CHECK = '/device-swap/v1/check';
const RETRIEVE = '/device-swap/v1/retrieve-date';
const MONITORED_DAYS = 30;

let seq = 0;
const latestOf = (r: Reply) => String((r.body as { latestDeviceChange: string | null }).latestDeviceChange);

describe('Device Swap: checks beyond the official scenarios', () => {
  let c: CamaraHarness;
  /** The same service with DEVICE_SWAP_MONITORED_DAYS set: the scenarios for a limited history. */
  let limited: CamaraHarness;
  let token: string;
  let limitedToken: string;

  beforeAll(async () => {
    c = await startCamaraHarness({ env: { TIMEZONE: 'Africa/Dar_es_Salaam' } });
    limited = await startCamaraHarness({ env: { DEVICE_SWAP_MONITORED_DAYS: String(MONITORED_DAYS) } });
    token = await c.tokens.twoLegged({ scope: 'device-swap:check device-swap:retrieve-date' });
    limitedToken = await limited.tokens.twoLegged({ scope: 'device-swap' });
  });
  afterAll(async () => {
    await c?.close();
    await limited?.close();
  });

  const check = (body: unknown, t = token) => c.call(CHECK, body, { token: t });
  const retrieve = (body: unknown, t = token) => c.call(RETRIEVE, body, { token: t });
  const fresh = (facts: SignalFacts) => subscriberWith(c, '25571230', ++seq, facts);
  const threeLegged = (phone: string, scope: string) => c.tokens.threeLegged(phone, { scope });

  describe('checkDeviceSwap (device-swap-checkDeviceSwap.feature)', () => {
    it('when a swapped line is checked by number or by a three-legged token, then swapped true and the correlator echoed', async () => {
      const three = await threeLegged('+255712000011', 'device-swap:check');
      for (const [body, t] of [[{ phoneNumber: '+255712000011' }, token], [{}, three]] as const) {
        const r = await c.call(CHECK, body, { token: t, headers: { 'x-correlator': 'b4333c46-49c0-4f62-80d7-f0ef930f1c46' } });
        expect([r.status, r.body]).toEqual([200, { swapped: true }]);
        expectCorrelated(r, 'b4333c46-49c0-4f62-80d7-f0ef930f1c46');
      }
    });

    it('when the device changed within the default 240 h (2 h, 239 h ago), then swapped true', async () => {
      // The demo number changed device 2 hours before start; a fresh one 239 hours ago.
      for (const phoneNumber of ['+255712000011', fresh({ deviceFirstSeenAt: 'now-800d', deviceChangedAt: 'now-239h' })]) {
        expect((await check({ phoneNumber })).body).toEqual({ swapped: true });
      }
    });

    describe.each([260, 120, 24, 12])('with hours = %i', (hours) => {
      it('when the device changed an hour inside maxAge, then swapped true, for maxAge and beyond', async () => {
        const phoneNumber = fresh({ deviceFirstSeenAt: 'now-800d', deviceChangedAt: `now-${hours - 1}h` });
        for (const maxAge of [hours, hours + 100]) {
          const r = await check({ phoneNumber, maxAge });
          expect([maxAge, r.status, r.body]).toEqual([maxAge, 200, { swapped: true }]);
        }
      });
    });

    it('when the device changed over 240 h ago and maxAge is not sent, then swapped false', async () => {
      for (const phoneNumber of ['+255712000012', fresh({ deviceFirstSeenAt: 'now-800d', deviceChangedAt: 'now-241h' })]) {
        expect((await check({ phoneNumber })).body).toEqual({ swapped: false });
      }
    });

    it('when the change is just outside maxAge, then false; just inside, true', async () => {
      const phoneNumber = fresh({ deviceFirstSeenAt: 'now-800d', deviceChangedAt: 'now-50h' });
      expect((await check({ phoneNumber, maxAge: 49 })).body).toEqual({ swapped: false });
      // The same line within the window: the answer above is the window's doing.
      expect((await check({ phoneNumber, maxAge: 51 })).body).toEqual({ swapped: true });
    });

    it('when the device never changed and was first used over 240 h ago, then swapped false', async () => {
      for (const phoneNumber of ['+255712000013', fresh({ deviceFirstSeenAt: 'now-241h', deviceChangedAt: null })]) {
        expect((await check({ phoneNumber })).body).toEqual({ swapped: false });
      }
    });

    describe.each([260, 120, 24, 12])('with hours = %i', (hours) => {
      it('when the device never changed, then false before its first use and true for a window that reaches it', async () => {
        const phoneNumber = fresh({ deviceFirstSeenAt: `now-${hours + 1}h`, deviceChangedAt: null });
        expect((await check({ phoneNumber, maxAge: hours - 1 })).body).toEqual({ swapped: false });
        // First use in a device is a device swap (device-swap.yaml): a window reaching it says so.
        expect((await check({ phoneNumber, maxAge: hours + 2 })).body).toEqual({ swapped: true });
      });
    });

    it('when a line was never in a device or the HLR has no device facts, then 422 SERVICE_NOT_APPLICABLE', async () => {
      // Never in a device (demo 014), and a line the HLR reports no device facts for (demo 001).
      for (const phoneNumber of ['+255712000014', '+255712000001']) {
        expectErrorInfo(await check({ phoneNumber }), 422, 'SERVICE_NOT_APPLICABLE');
      }
    });

    it('when phoneNumber is not E.164 (no +, leading 0, short, tel: URI, a number, null), then 400 INVALID_ARGUMENT', async () => {
      for (const phoneNumber of ['255712000011', '+0255712000011', '+2557', 'tel:+255712000011', 255712000011, null]) {
        expectErrorInfo(await check({ phoneNumber }), 400, 'INVALID_ARGUMENT');
      }
    });

    it('when the number is no subscriber, terminated or impossible in the plan, then 404 IDENTIFIER_NOT_FOUND', async () => {
      // Not a subscriber, terminated (demo 004), an impossible national number.
      for (const phoneNumber of ['+255712999999', '+255712000004', '+2557120000']) {
        expectErrorInfo(await check({ phoneNumber }), 404, 'IDENTIFIER_NOT_FOUND');
      }
    });


    it('when no number is sent and a two-legged token names none, with or without maxAge, then 422 MISSING_IDENTIFIER', async () => {
      expectErrorInfo(await check({ maxAge: 24 }), 422, 'MISSING_IDENTIFIER');
      expectErrorInfo(await check({}), 422, 'MISSING_IDENTIFIER');
    });

    it("when another country's number is sent or named by the token, then 422 SERVICE_NOT_APPLICABLE", async () => {
      expectErrorInfo(await check({ phoneNumber: '+254712000011' }), 422, 'SERVICE_NOT_APPLICABLE');
      const t = await threeLegged('+4915112345678', 'device-swap:check');
      expectErrorInfo(await check({}, t), 422, 'SERVICE_NOT_APPLICABLE');
    });



    it('when the token is not a JWT or its signature is altered, then 401 UNAUTHENTICATED', async () => {
      const [h, p] = token.split('.');
      for (const t of ['not-a-jwt', `${h}.${p}.AAAA`, `${token.slice(0, -4)}AAAA`]) {
        expectErrorInfo(await check({ phoneNumber: '+255712000011' }, t), 401, 'UNAUTHENTICATED');
      }
    });

    it('when maxAge is not an integer (a string, a fraction, null, a boolean, an array, an object), then 400 INVALID_ARGUMENT', async () => {
      for (const maxAge of ['240', 1.5, null, true, [24], { h: 1 }]) {
        expectErrorInfo(await check({ phoneNumber: '+255712000011', maxAge }), 400, 'INVALID_ARGUMENT');
      }
    });

    it('when maxAge is outside 1–2400 or beyond DEVICE_SWAP_MONITORED_DAYS, then 400 OUT_OF_RANGE; at the period, answered', async () => {
      for (const maxAge of [2401, 100000, 0, -1]) {
        expectErrorInfo(await check({ phoneNumber: '+255712000011', maxAge }), 400, 'OUT_OF_RANGE');
      }
      // Beyond DEVICE_SWAP_MONITORED_DAYS in hours is out of range too; at it, answered.
      const over = await limited.call(CHECK, { phoneNumber: '+255712000011', maxAge: MONITORED_DAYS * 24 + 1 }, { token: limitedToken });
      expectErrorInfo(over, 400, 'OUT_OF_RANGE');
      expect((over.body as { message: string }).message).toContain(`${MONITORED_DAYS} days`);
      expect((await limited.call(CHECK, { phoneNumber: '+255712000011', maxAge: MONITORED_DAYS * 24 }, { token: limitedToken })).status).toBe(200);
    });
  });

  describe('retrieveDeviceSwapDate (device-swap-retrieveDeviceSwapDate.feature)', () => {
    it('when the date is retrieved by number or by a three-legged token, then only latestDeviceChange, and an odd correlator echoed', async () => {
      const three = await threeLegged('+255712000012', 'device-swap:retrieve-date');
      for (const [body, t] of [[{ phoneNumber: '+255712000012' }, token], [{}, three]] as const) {
        const r = await c.call(RETRIEVE, body, { token: t, headers: { 'x-correlator': 'corr:1;a.b/<c>{d}_e-f' } });
        expect(r.status).toBe(200);
        expectCorrelated(r, 'corr:1;a.b/<c>{d}_e-f');
        expect(Object.keys(r.body as object)).toEqual(['latestDeviceChange']);
      }
    });

    it('when the device changed, then its instant in RFC 3339 with the TIMEZONE offset', async () => {
      const r = await retrieve({ phoneNumber: '+255712000011' });
      // RFC 3339 with the TIMEZONE offset (Africa/Dar_es_Salaam), never Z; 2 hours before start.
      expect(latestOf(r)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+03:00$/);
      const phoneNumber = fresh({ deviceFirstSeenAt: '2020-01-01T00:00:00Z', deviceChangedAt: '2026-01-02T03:04:05Z' });
      expect(Date.parse(latestOf(await retrieve({ phoneNumber })))).toBe(Date.parse('2026-01-02T03:04:05Z'));
    });

    it('when the device never changed, then the first use, in the TIMEZONE offset', async () => {
      const phoneNumber = fresh({ deviceFirstSeenAt: '2021-06-07T08:09:10Z', deviceChangedAt: null });
      const r = await retrieve({ phoneNumber });
      expect([r.status, latestOf(r)]).toEqual([200, '2021-06-07T11:09:10+03:00']);
    });

    it('when the change is before DEVICE_SWAP_MONITORED_DAYS, then null with monitoredPeriod; within it, the date', async () => {
      // Demo 012 changed device 400 days ago; 011 two hours ago (within the period: given).
      const r = await limited.call(RETRIEVE, { phoneNumber: '+255712000012' }, { token: limitedToken });
      expect([r.status, r.body]).toEqual([200, { latestDeviceChange: null, monitoredPeriod: MONITORED_DAYS }]);
      expect(latestOf(await limited.call(RETRIEVE, { phoneNumber: '+255712000011' }, { token: limitedToken }))).toMatch(/^\d{4}-/);
    });


    it('when retrieve-date gets a phoneNumber that is not E.164, then 400 INVALID_ARGUMENT', async () => {
      for (const phoneNumber of ['0712000011', '+255 712 000 011', '', 42]) {
        expectErrorInfo(await retrieve({ phoneNumber }), 400, 'INVALID_ARGUMENT');
      }
    });


    it('when a three-legged token names one number and the body another, then 422 UNNECESSARY_IDENTIFIER', async () => {
      const t = await threeLegged('+255712000011', 'device-swap:retrieve-date');
      expectErrorInfo(await retrieve({ phoneNumber: '+255712000012' }, t), 422, 'UNNECESSARY_IDENTIFIER');
    });

    // The retrieve-date feature file tags its missing-identifier scenario with a check_ prefix.




    it('when retrieve-date gets a malformed or altered token, then 401 UNAUTHENTICATED', async () => {
      for (const t of ['x.y.z', `${token}x`]) {
        expectErrorInfo(await retrieve({ phoneNumber: '+255712000011' }, t), 401, 'UNAUTHENTICATED');
      }
    });
  });

});
