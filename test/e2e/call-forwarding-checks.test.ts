import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { expectCorrelated, expectErrorInfo, subscriberWith } from '../support/camara-scenarios';

/*
 * Call Forwarding Signal 0.4.0 (CONTRACT §11) beyond its official scenarios, which the
 * conformance kit runs as they are (docs/conformance.md): exact answers per line, both
 * operations per rule, both token kinds, the rate limit, the list turned off, and the service's
 * answers where the feature files are wrong (conformance/known-failures.json). Every reply is
 * validated against call-forwarding-signal.yaml by the harness.
 */

const ROOT = '/call-forwarding-signal/v0.4';
const UNCONDITIONAL = `${ROOT}/unconditional-call-forwardings`;
const LIST = `${ROOT}/call-forwardings`;
const BOTH = [UNCONDITIONAL, LIST];
const SCOPES = 'call-forwarding-signal:unconditional-call-forwardings:read call-forwarding-signal:call-forwardings:read';

describe('Call Forwarding Signal: checks beyond the official scenarios', () => {
  let c: CamaraHarness;
  let token: string;

  beforeAll(async () => {
    // The demo partner, and two with a burst of 2 for the rate-limit scenarios.
    const file = join(mkdtempSync(join(tmpdir(), 'vc-cfs-')), 'partners.json');
    const limited = (apiKey: string) => ({ name: apiKey, apiKey, secret: 'cfs-secret', operations: ['call_forwarding'], rateLimit: { perSecond: 0.01, burst: 2 } });
    writeFileSync(file, JSON.stringify({ partners: [
      { name: 'demo-bank', apiKey: 'demo-key', secret: 'demo-secret', operations: ['kyc', 'sim_swap', 'call_forwarding'] },
      limited('cfs-quota'), limited('cfs-rate'),
    ] }));
    c = await startCamaraHarness({ env: { PARTNERS_FILE: file } });
    token = await c.tokens.twoLegged({ scope: SCOPES });
  });
  afterAll(() => c?.close());

  const call = (path: string, body: unknown, t: string | null = token) => c.call(path, body, { token: t });
  const threeLegged = (phone: string) => c.tokens.threeLegged(phone, { scope: SCOPES });

  describe('both operations (shared tags)', () => {
    it('when a three-legged token names the number, then both operations answer for it, with the correlator echoed', async () => {
      const t = await threeLegged('+255712000012');
      for (const [path, expected] of [[UNCONDITIONAL, { active: true }], [LIST, ['unconditional']]] as const) {
        const r = await c.call(path, {}, { token: t, headers: { 'x-correlator': 'cfs-3legs' } });
        expect([r.status, r.body]).toEqual([200, expected]);
        expectCorrelated(r, 'cfs-3legs');
      }
    });

    it('when the body is missing, with or without a Content-Type, then 400 INVALID_ARGUMENT on both', async () => {
      for (const path of BOTH) {
        expectErrorInfo(await call(path, undefined), 400, 'INVALID_ARGUMENT');
        expectErrorInfo(await c.call(path, undefined, { token, contentType: null }), 400, 'INVALID_ARGUMENT');
      }
    });

    it('when the body is {} with a two-legged token, then 422 MISSING_IDENTIFIER (the yaml and 422.1, not the 400 of the feature’s 400.2)', async () => {
      // This scenario's 400 contradicts 422.1 (a two-legged token identifies no phone number) and
      // the yaml; 422.1 is followed (docs/camara.md): {} is 422 MISSING_IDENTIFIER.
      for (const path of BOTH) expectErrorInfo(await call(path, {}), 422, 'MISSING_IDENTIFIER');
    });

    it('when phoneNumber is not an E.164 string, then 400 INVALID_ARGUMENT on both', async () => {
      for (const path of BOTH) {
        for (const phoneNumber of ['255712000012', '+2557', 42, null, ['+255712000012']]) {
          expectErrorInfo(await call(path, { phoneNumber }), 400, 'INVALID_ARGUMENT');
        }
      }
    });

    it('when the token is missing, malformed, altered or expired, then 401 UNAUTHENTICATED on both', async () => {
      for (const path of BOTH) {
        for (const t of [null, 'x.y.z', `${token}x`, await c.tokens.expired({ scope: SCOPES })]) {
          expectErrorInfo(await call(path, { phoneNumber: '+255712000012' }, t), 401, 'UNAUTHENTICATED');
        }
      }
    });

    it("when the token holds another API's scope, or only the other operation's, then 403 PERMISSION_DENIED", async () => {
      // A token for other APIs, and one holding only the other operation's scope.
      const simSwapOnly = await c.tokens.twoLegged({ scope: 'sim-swap' });
      const unconditionalOnly = await c.tokens.twoLegged({ scope: 'call-forwarding-signal:unconditional-call-forwardings:read' });
      for (const path of BOTH) expectErrorInfo(await call(path, { phoneNumber: '+255712000012' }, simSwapOnly), 403, 'PERMISSION_DENIED');
      expectErrorInfo(await call(LIST, { phoneNumber: '+255712000012' }, unconditionalOnly), 403, 'PERMISSION_DENIED');
    });

    it('when the HLR says nothing of forwarding for a subscriber, then 404 IDENTIFIER_NOT_FOUND on both', async () => {
      // Demo 001: a subscriber whose HLR entry says nothing of forwarding.
      for (const path of BOTH) expectErrorInfo(await call(path, { phoneNumber: '+255712000001' }), 404, 'IDENTIFIER_NOT_FOUND');
    });

    it('when the number is no subscriber, in the body or named by a three-legged token, then 404 IDENTIFIER_NOT_FOUND', async () => {
      for (const path of BOTH) {
        expectErrorInfo(await call(path, { phoneNumber: '+255712999999' }), 404, 'IDENTIFIER_NOT_FOUND');
        expectErrorInfo(await call(path, {}, await threeLegged('+255712999998')), 404, 'IDENTIFIER_NOT_FOUND');
      }
    });

    it('when no number is sent and the token names none (two-legged, or an end user not by phone number), then 422 MISSING_IDENTIFIER', async () => {
      // A two-legged token, and one that names an end user but not by phone number.
      const t = await c.tokens.external({ sub: 'user-42', scope: SCOPES });
      for (const path of BOTH) {
        expectErrorInfo(await call(path, {}), 422, 'MISSING_IDENTIFIER');
        expectErrorInfo(await call(path, {}, t), 422, 'MISSING_IDENTIFIER');
      }
    });



    it('when a partner exceeds its quota (its rate limit), then 429 TOO_MANY_REQUESTS with Retry-After on both', async () => {
      // A partner's quota is its rate limit here: over it, 429 with Retry-After (docs/camara.md).
      await expectRateLimited(c, 'cfs-quota');
    });

    it('when a partner exceeds its rate limit, then 429 TOO_MANY_REQUESTS with Retry-After on both', async () => {
      await expectRateLimited(c, 'cfs-rate');
    });
  });

  describe('retrieveUnconditionalCallForwarding', () => {
    it('when unconditional forwarding is asked by number, then active true and the correlator echoed', async () => {
      const r = await c.call(UNCONDITIONAL, { phoneNumber: '+255712000012' }, { token, headers: { 'x-correlator': 'cfs-1' } });
      expect([r.status, r.body]).toEqual([200, { active: true }]);
      expectCorrelated(r, 'cfs-1');
    });

    it('when the line forwards unconditionally, conditionally only, or not at all, then active true, false, false', async () => {
      // Unconditional (012), conditional only (013), none (011).
      const answers = [];
      for (const phoneNumber of ['+255712000012', '+255712000013', '+255712000011']) answers.push((await call(UNCONDITIONAL, { phoneNumber })).body);
      expect(answers).toEqual([{ active: true }, { active: false }, { active: false }]);
    });

    it('when a three-legged token names the number, then the unconditional answer is for it', async () => {
      expect((await call(UNCONDITIONAL, {}, await threeLegged('+255712000013'))).body).toEqual({ active: false });
      expect((await call(UNCONDITIONAL, {}, await threeLegged('+255712000012'))).body).toEqual({ active: true });
    });
  });

  describe('retrieveCallForwarding', () => {
    it('when the list is asked for a line with conditional forwardings, then exactly those, correlator echoed', async () => {
      const r = await c.call(LIST, { phoneNumber: '+255712000013' }, { token, headers: { 'x-correlator': 'cfs-2' } });
      expect([r.status, r.body]).toEqual([200, ['conditional_busy', 'conditional_no_answer']]);
      expectCorrelated(r, 'cfs-2');
    });

    it('when a line forwards nothing, then the list is ["inactive"] (the yaml’s array)', async () => {
      expect((await call(LIST, { phoneNumber: '+255712000011' })).body).toEqual(['inactive']);
    });

    it('when a three-legged token names a line that forwards nothing, then ["inactive"]', async () => {
      expect((await call(LIST, {}, await threeLegged('+255712000015'))).body).toEqual(['inactive']);
    });

    it('when a line has every forwarding, then all four, in the yaml’s order', async () => {
      const all = subscriberWith(c, '25571240', 1, { callForwarding: ['conditional_no_answer', 'unconditional', 'conditional_not_reachable', 'conditional_busy'] });
      expect((await call(LIST, { phoneNumber: all })).body).toEqual(['unconditional', 'conditional_busy', 'conditional_not_reachable', 'conditional_no_answer']);
    });

    it('when a three-legged token names a forwarding line, then its list', async () => {
      expect((await call(LIST, {}, await threeLegged('+255712000012'))).body).toEqual(['unconditional']);
    });

    it('when CALL_FORWARDING_LIST=false, then the list is 501 NOT_IMPLEMENTED and the unconditional signal still answered', async () => {
      const off = await startCamaraHarness({ env: { CALL_FORWARDING_LIST: 'false' } });
      try {
        const t = await off.tokens.twoLegged({ scope: SCOPES });
        expectErrorInfo(await off.call(LIST, { phoneNumber: '+255712000012' }, { token: t }), 501, 'NOT_IMPLEMENTED');
        // The unconditional signal, the API's main scope, is still offered.
        expect((await off.call(UNCONDITIONAL, { phoneNumber: '+255712000012' }, { token: t })).body).toEqual({ active: true });
      } finally {
        await off.close();
      }
    });
  });

});

/** A partner with a burst of 2: the third call within the second is 429 TOO_MANY_REQUESTS with Retry-After, on both operations. */
async function expectRateLimited(c: CamaraHarness, apiKey: string): Promise<void> {
  // From the external issuer: the built-in token endpoint would spend one of the burst.
  const t = await c.tokens.external({ clientId: apiKey, scope: SCOPES });
  for (const path of BOTH) expect((await c.call(path, { phoneNumber: '+255712000012' }, { token: t })).status).toBe(200);
  for (const path of BOTH) {
    const r = await c.call(path, { phoneNumber: '+255712000012' }, { token: t });
    expectErrorInfo(r, 429, 'TOO_MANY_REQUESTS');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  }
}
