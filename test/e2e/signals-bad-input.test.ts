import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { expectErrorInfo, subscriberWith } from '../support/camara-scenarios';

/*
 * Bad input and faults on Device Swap, Call Forwarding Signal and Number Recycling
 * (CONTRACT §7, §11): whatever the body, a clear ErrorInfo valid against the API's yaml (the
 * harness validates every reply), never a 5xx but 503 UNAVAILABLE when the HLR cannot be asked
 * and nothing usable is cached.
 */

const DEVICE_CHECK = '/device-swap/v1/check';
const DEVICE_RETRIEVE = '/device-swap/v1/retrieve-date';
const UNCONDITIONAL = '/call-forwarding-signal/v0.4/unconditional-call-forwardings';
const LIST = '/call-forwarding-signal/v0.4/call-forwardings';
const RECYCLING = '/number-recycling/v0.2/check';
const PATHS = [DEVICE_CHECK, DEVICE_RETRIEVE, UNCONDITIONAL, LIST, RECYCLING];
/** A valid body for each path, about demo 012 (every §11 fact known). */
const VALID: Record<string, Record<string, unknown>> = {
  [DEVICE_CHECK]: { phoneNumber: '+255712000012', maxAge: 240 },
  [DEVICE_RETRIEVE]: { phoneNumber: '+255712000012' },
  [UNCONDITIONAL]: { phoneNumber: '+255712000012' },
  [LIST]: { phoneNumber: '+255712000012' },
  [RECYCLING]: { phoneNumber: '+255712000012', specifiedDate: '2020-01-01' },
};

// Short caches, so the fault tests find nothing usable cached for their own numbers.
const ENV = { KYC_CACHE_TTL_S: '0', KYC_STALE_S: '0', NEGATIVE_CACHE_TTL_S: '0', HLR_TIMEOUT_MS: '300' };

describe('signal APIs: bad input and faults', () => {
  let c: CamaraHarness;
  let token: string;
  beforeAll(async () => {
    c = await startCamaraHarness({ env: ENV });
    token = await c.tokens.twoLegged({});
  });
  afterAll(() => c?.close());
  afterEach(() => c.h.sim.resetFaults());

  const call = (path: string, body: unknown, contentType?: string | null) => c.call(path, body, { token, ...(contentType === undefined ? {} : { contentType }) });

  it('when every valid body is sent, then each path answers 200 (the baseline the cases below depart from)', async () => {
    for (const path of PATHS) expect([path, (await call(path, VALID[path])).status]).toEqual([path, 200]);
  });

  it('when a body holds an unknown field, then 400 INVALID_ARGUMENT names it', async () => {
    for (const path of PATHS) {
      const r = await call(path, { ...VALID[path], maxage: 24 });
      expectErrorInfo(r, 400, 'INVALID_ARGUMENT');
      expect((r.body as { message: string }).message).toContain('"maxage"');
    }
  });

  it('when a body is not a JSON object, is empty or is malformed, then 400 INVALID_ARGUMENT', async () => {
    for (const path of PATHS) {
      for (const body of ['[]', '"x"', '42', 'null', '{"phoneNumber":', '{"phoneNumber":"+255712000012",}']) {
        expectErrorInfo(await call(path, body), 400, 'INVALID_ARGUMENT');
      }
      expectErrorInfo(await call(path, undefined), 400, 'INVALID_ARGUMENT');
      expectErrorInfo(await call(path, VALID[path], 'text/plain'), 400, 'INVALID_ARGUMENT');
    }
  });

  it('when a field has the wrong type, then 400 INVALID_ARGUMENT', async () => {
    for (const path of PATHS) {
      for (const phoneNumber of [255712000012, true, {}, ['+255712000012']]) {
        expectErrorInfo(await call(path, { ...VALID[path], phoneNumber }), 400, 'INVALID_ARGUMENT');
      }
    }
    for (const maxAge of ['24', 24.5, null, false]) expectErrorInfo(await call(DEVICE_CHECK, { ...VALID[DEVICE_CHECK], maxAge }), 400, 'INVALID_ARGUMENT');
  });

  it('when a date is not a date, then 400 INVALID_ARGUMENT; in the future, 400 OUT_OF_RANGE', async () => {
    for (const specifiedDate of ['2024-13-01', '2024-02-30', '2024-1-1', 'yesterday', '2024-01-01T00:00:00Z', 20240101, null]) {
      expectErrorInfo(await call(RECYCLING, { ...VALID[RECYCLING], specifiedDate }), 400, 'INVALID_ARGUMENT');
    }
    expectErrorInfo(await call(RECYCLING, { ...VALID[RECYCLING], specifiedDate: '2999-12-31' }), 400, 'OUT_OF_RANGE');
  });

  it('when maxAge is outside 1–2400 hours, then 400 OUT_OF_RANGE', async () => {
    for (const maxAge of [0, -5, 2401, Number.MAX_SAFE_INTEGER]) {
      expectErrorInfo(await call(DEVICE_CHECK, { ...VALID[DEVICE_CHECK], maxAge }), 400, 'OUT_OF_RANGE');
    }
  });

  it('when the token lacks the operation\'s scope, then 403 PERMISSION_DENIED', async () => {
    const other = await c.tokens.twoLegged({ scope: 'sim-swap' });
    for (const path of PATHS) expectErrorInfo(await c.call(path, VALID[path], { token: other }), 403, 'PERMISSION_DENIED');
  });

  it('when the number is terminated or unknown, then 404 IDENTIFIER_NOT_FOUND on every path', async () => {
    for (const path of PATHS) {
      for (const phoneNumber of ['+255712000004', '+255712999999']) {
        expectErrorInfo(await call(path, { ...VALID[path], phoneNumber }), 404, 'IDENTIFIER_NOT_FOUND');
      }
    }
  });

  it('when the HLR does not know when the current subscriber began, then Number Recycling is 422, never a guess', async () => {
    const phoneNumber = subscriberWith(c, '25571260', 1, { activatedAt: null });
    expectErrorInfo(await call(RECYCLING, { phoneNumber, specifiedDate: '2020-01-01' }), 422, 'SERVICE_NOT_APPLICABLE');
  });

  it('when an unknown path under an API root or another method is used, then 404 NOT_FOUND or 405', async () => {
    expectErrorInfo(await call('/device-swap/v1/checks', {}), 404, 'NOT_FOUND');
    expectErrorInfo(await call('/number-recycling/v0.2', {}), 404, 'NOT_FOUND');
    const r = await c.call(LIST, undefined, { token, method: 'GET' });
    expectErrorInfo(r, 405, 'METHOD_NOT_ALLOWED');
    expect(r.headers.get('allow')).toBe('POST');
  });

  it('when the HLR is down and nothing usable is cached, then 503 UNAVAILABLE on every path', async () => {
    c.h.sim.setFault('hlr', { down: true });
    for (const path of PATHS) {
      const phoneNumber = subscriberWith(c, '25571261', PATHS.indexOf(path) + 1, { deviceFirstSeenAt: 'now-10d', callForwarding: [] });
      expectErrorInfo(await call(path, { ...VALID[path], phoneNumber }), 503, 'UNAVAILABLE');
    }
  });

  it('when the HLR times out, then 503 UNAVAILABLE, and the answer comes once it is back', async () => {
    const phoneNumber = subscriberWith(c, '25571262', 1, { deviceFirstSeenAt: 'now-10d', deviceChangedAt: null, callForwarding: [] });
    c.h.sim.setFault('hlr', { latencyMs: 2000 });
    expectErrorInfo(await call(DEVICE_CHECK, { phoneNumber }), 503, 'UNAVAILABLE');
    c.h.sim.resetFaults();
    const r = await call(DEVICE_CHECK, { phoneNumber });
    expect([r.status, r.body]).toEqual([200, { swapped: false }]);
  });
});
