import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { expectCorrelated, expectErrorInfo, featureTags, scenarioRegistry, subscriberWith } from '../support/camara-scenarios';

/*
 * Call Forwarding Signal 0.4.0 conformance (CONTRACT §11): every scenario of both official
 * .feature files is one test named after its tag (the two files share their error tags: each
 * such test runs the scenario against both operations), validated against
 * call-forwarding-signal.yaml by the harness.
 */

const FEATURES = ['call-forwarding-signal-retrieveCallForwarding.feature', 'call-forwarding-signal-retrieveUnconditionalCallForwarding.feature'];
const ROOT = '/call-forwarding-signal/v0.4';
const UNCONDITIONAL = `${ROOT}/unconditional-call-forwardings`;
const LIST = `${ROOT}/call-forwardings`;
const BOTH = [UNCONDITIONAL, LIST];
const SCOPES = 'call-forwarding-signal:unconditional-call-forwardings:read call-forwarding-signal:call-forwardings:read';
const { scenario, tested } = scenarioRegistry();

describe('Call Forwarding Signal conformance: the official scenarios', () => {
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
    scenario('call_forwarding_signal_01.1_generic_success_scenario_3-legs', async () => {
      const t = await threeLegged('+255712000012');
      for (const [path, expected] of [[UNCONDITIONAL, { active: true }], [LIST, ['unconditional']]] as const) {
        const r = await c.call(path, {}, { token: t, headers: { 'x-correlator': 'cfs-3legs' } });
        expect([r.status, r.body]).toEqual([200, expected]);
        expectCorrelated(r, 'cfs-3legs');
      }
    });

    scenario('call_forwarding_signal_400.1_no_request_body', async () => {
      for (const path of BOTH) {
        expectErrorInfo(await call(path, undefined), 400, 'INVALID_ARGUMENT');
        expectErrorInfo(await c.call(path, undefined, { token, contentType: null }), 400, 'INVALID_ARGUMENT');
      }
    });

    scenario('call_forwarding_signal_400.2_empty_request_body', async () => {
      // This scenario's 400 contradicts 422.1 (a two-legged token identifies no phone number) and
      // the yaml; 422.1 is followed (docs/camara.md): {} is 422 MISSING_IDENTIFIER.
      for (const path of BOTH) expectErrorInfo(await call(path, {}), 422, 'MISSING_IDENTIFIER');
    });

    scenario('call_forwarding_signal_400.3_C02.01_phone_number_not_schema_compliant', async () => {
      for (const path of BOTH) {
        for (const phoneNumber of ['255712000012', '+2557', 42, null, ['+255712000012']]) {
          expectErrorInfo(await call(path, { phoneNumber }), 400, 'INVALID_ARGUMENT');
        }
      }
    });

    scenario('call_forwarding_signal_401.invalid_token', async () => {
      for (const path of BOTH) {
        for (const t of [null, 'x.y.z', `${token}x`, await c.tokens.expired({ scope: SCOPES })]) {
          expectErrorInfo(await call(path, { phoneNumber: '+255712000012' }, t), 401, 'UNAUTHENTICATED');
        }
      }
    });

    scenario('call_forwarding_signal_403_permission_denied', async () => {
      // A token for other APIs, and one holding only the other operation's scope.
      const simSwapOnly = await c.tokens.twoLegged({ scope: 'sim-swap' });
      const unconditionalOnly = await c.tokens.twoLegged({ scope: 'call-forwarding-signal:unconditional-call-forwardings:read' });
      for (const path of BOTH) expectErrorInfo(await call(path, { phoneNumber: '+255712000012' }, simSwapOnly), 403, 'PERMISSION_DENIED');
      expectErrorInfo(await call(LIST, { phoneNumber: '+255712000012' }, unconditionalOnly), 403, 'PERMISSION_DENIED');
    });

    scenario('call_forwarding_signal_404.1_call_forwarding_for_unknown_phoneNumber_2-legs', async () => {
      // Demo 001: a subscriber whose HLR entry says nothing of forwarding.
      for (const path of BOTH) expectErrorInfo(await call(path, { phoneNumber: '+255712000001' }), 404, 'IDENTIFIER_NOT_FOUND');
    });

    scenario('call_forwarding_signal_404.2_call_forwarding_for_unknown_phoneNumber_from_access_token_3-legs_C02.02_phone_number_not_found', async () => {
      for (const path of BOTH) {
        expectErrorInfo(await call(path, { phoneNumber: '+255712999999' }), 404, 'IDENTIFIER_NOT_FOUND');
        expectErrorInfo(await call(path, {}, await threeLegged('+255712999998')), 404, 'IDENTIFIER_NOT_FOUND');
      }
    });

    scenario('call_forwarding_signal_422.1_phone_number_unavailable_2-legs_C02.04_missing_phone_number', async () => {
      // A two-legged token, and one that names an end user but not by phone number.
      const t = await c.tokens.external({ sub: 'user-42', scope: SCOPES });
      for (const path of BOTH) {
        expectErrorInfo(await call(path, {}), 422, 'MISSING_IDENTIFIER');
        expectErrorInfo(await call(path, {}, t), 422, 'MISSING_IDENTIFIER');
      }
    });

    scenario('call_forwarding_signal_422.2_phone_number_unnecessary_3-legs_C02.03_unnecessary_phone_number', async () => {
      const t = await threeLegged('+255712000012');
      for (const path of BOTH) expectErrorInfo(await call(path, { phoneNumber: '+255712000012' }, t), 422, 'UNNECESSARY_IDENTIFIER');
    });

    scenario('call_forwarding_signal_422.3_2-legs_C02.05_phone_number_not_supported', async () => {
      for (const path of BOTH) expectErrorInfo(await call(path, { phoneNumber: '+254712000012' }), 422, 'SERVICE_NOT_APPLICABLE');
    });

    scenario('call_forwarding_signal_429.1_quota_limit_exceeded', async () => {
      // A partner's quota is its rate limit here: over it, 429 with Retry-After (docs/camara.md).
      await expectRateLimited(c, 'cfs-quota');
    });

    scenario('call_forwarding_signal_429.2_too_many_requests', async () => {
      await expectRateLimited(c, 'cfs-rate');
    });
  });

  describe('retrieveUnconditionalCallForwarding', () => {
    scenario('call_forwarding_signal_01_unconditional_generic_success_scenario_2-legs', async () => {
      const r = await c.call(UNCONDITIONAL, { phoneNumber: '+255712000012' }, { token, headers: { 'x-correlator': 'cfs-1' } });
      expect([r.status, r.body]).toEqual([200, { active: true }]);
      expectCorrelated(r, 'cfs-1');
    });

    scenario('call_forwarding_signal_02_unconditional_phoneNumber', async () => {
      // Unconditional (012), conditional only (013), none (011).
      const answers = [];
      for (const phoneNumber of ['+255712000012', '+255712000013', '+255712000011']) answers.push((await call(UNCONDITIONAL, { phoneNumber })).body);
      expect(answers).toEqual([{ active: true }, { active: false }, { active: false }]);
    });

    scenario('call_forwarding_signal_03_unconditional_access_token', async () => {
      expect((await call(UNCONDITIONAL, {}, await threeLegged('+255712000013'))).body).toEqual({ active: false });
      expect((await call(UNCONDITIONAL, {}, await threeLegged('+255712000012'))).body).toEqual({ active: true });
    });
  });

  describe('retrieveCallForwarding', () => {
    scenario('call_forwarding_signal_01_generic_success_scenario_2-legs', async () => {
      const r = await c.call(LIST, { phoneNumber: '+255712000013' }, { token, headers: { 'x-correlator': 'cfs-2' } });
      expect([r.status, r.body]).toEqual([200, ['conditional_busy', 'conditional_no_answer']]);
      expectCorrelated(r, 'cfs-2');
    });

    scenario('call_forwarding_signal_02_call_forwarding_check_not_active_phoneNumber', async () => {
      expect((await call(LIST, { phoneNumber: '+255712000011' })).body).toEqual(['inactive']);
    });

    scenario('call_forwarding_signal_03_call_forwarding_check_not_active_access_token', async () => {
      expect((await call(LIST, {}, await threeLegged('+255712000015'))).body).toEqual(['inactive']);
    });

    scenario('call_forwarding_signal_04_call_forwarding_check_active_phoneNumber', async () => {
      const all = subscriberWith(c, '25571240', 1, { callForwarding: ['conditional_no_answer', 'unconditional', 'conditional_not_reachable', 'conditional_busy'] });
      expect((await call(LIST, { phoneNumber: all })).body).toEqual(['unconditional', 'conditional_busy', 'conditional_not_reachable', 'conditional_no_answer']);
    });

    scenario('call_forwarding_signal_05_call_forwarding_check_active_access_token', async () => {
      expect((await call(LIST, {}, await threeLegged('+255712000012'))).body).toEqual(['unconditional']);
    });

    scenario('call_forwarding_signal_501.not_implemented', async () => {
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

  it('when the scenarios are listed, then every scenario tag of the two feature files is tested, and no tag they do not have', () => {
    expect([...new Set(featureTags(FEATURES))].sort()).toEqual([...tested].sort());
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
