import { validateHeaderValue } from 'node:http';
import fc from 'fast-check';
import { SUBS, SWAPPED, SubsHarness, startSubsHarness } from '../support/subscriptions-harness';

/*
 * Hostile input on the subscriptions API: whatever the body or id, the answer is a
 * Subscription or an ErrorInfo valid against the official document (the harness checks every
 * reply), never a 5xx, and a refused request stores nothing. FC_SEED / FC_RUNS as elsewhere.
 */

const SEED = Number(process.env.FC_SEED ?? 4242);
const RUNS = Number(process.env.FC_RUNS ?? 100);
const params = (base = 100) => ({ seed: SEED, numRuns: Math.max(1, Math.round((base * RUNS) / 100)), endOnFailure: true });

const field = <T>(good: T[], arb: fc.Arbitrary<unknown> = fc.jsonValue()) => fc.option(fc.oneof(fc.constantFrom(...good), arb), { nil: undefined });

/** Bodies near the valid shape: each field good, bad or absent. */
const nearlyValid = fc.record({
  protocol: field(['HTTP', 'MQTT3', 'http']),
  sink: field(['https://sink.example/x', 'http://127.0.0.1:1/x', 'not a url', 'https://u:p@h.example/', ''], fc.webUrl()),
  types: field([[SWAPPED], [], [SWAPPED, SWAPPED], ['x']]),
  sinkCredential: field([
    { credentialType: 'PLAIN', identifier: 'i', secret: 's' },
    { credentialType: 'ACCESSTOKEN', accessToken: 't', accessTokenExpiresUtc: '2099-01-01T00:00:00Z', accessTokenType: 'bearer' },
    { credentialType: 'ACCESSTOKEN', accessToken: 't', accessTokenExpiresUtc: '2099-01-01T00:00:00Z', accessTokenType: 'mac' },
    { credentialType: 'REFRESHTOKEN' }, {},
  ]),
  config: field([
    { subscriptionDetail: { phoneNumber: '+255712000001' } },
    { subscriptionDetail: {} },
    { subscriptionDetail: { phoneNumber: '+255712000001' }, subscriptionMaxEvents: 0 },
    { subscriptionDetail: { phoneNumber: '+255712000001' }, subscriptionExpireTime: '2020-01-01T00:00:00Z' },
    { subscriptionDetail: { phoneNumber: '+447700900123' } },
    { subscriptionDetail: { phoneNumber: 255712000001 } },
  ]),
}, { requiredKeys: [] });

/** Any text, with a bias to what a header or a date parser trips on: controls, non-Latin-1, colons, leap seconds. */
const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('tok\u0100en', 'tok\u0007', 'a:b', 'x\r\nY: 1', '\u0000', 'é', '=', 'a b'),
);
const hostileTime = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }),
    fc.constantFrom('Z', '+24:00', '-23:59', '+01:60', 'z', ''))
    .map(([y, mo, d, h, mi, s, z]) => `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}T${String(h).padStart(2, '0')}:${String(mi).padStart(2, '0')}:${String(s).padStart(2, '0')}${z}`),
  fc.constantFrom('2099-12-31T23:59:60Z', '2099-02-30T00:00:00Z', '2099-13-01T00:00:00Z'),
);

/** Bodies valid but for the sink credential's and expiry's text: arbitrary strings there. */
const hostileFields = fc.record({
  credential: fc.oneof(
    fc.record({ credentialType: fc.constant('ACCESSTOKEN'), accessToken: hostileText, accessTokenExpiresUtc: fc.oneof(hostileTime, fc.constant('2099-01-01T00:00:00Z')), accessTokenType: fc.constant('bearer') }),
    fc.record({ credentialType: fc.constant('PLAIN'), identifier: hostileText, secret: hostileText }),
  ),
  expire: fc.option(hostileTime, { nil: undefined }),
}).map(({ credential, expire }) => ({
  protocol: 'HTTP', sink: 'http://127.0.0.1:1/x', types: [SWAPPED], sinkCredential: credential,
  config: { subscriptionDetail: { phoneNumber: '+255712000001' }, ...(expire === undefined ? {} : { subscriptionExpireTime: expire }) },
}));

function sendable(c: Record<string, string>): boolean {
  try {
    if (c.credentialType === 'PLAIN') {
      if (c.identifier.includes(':')) return false;
      validateHeaderValue('authorization', `${c.identifier}${c.secret}`);
    } else {
      validateHeaderValue('authorization', `Bearer ${c.accessToken}`);
    }
    return true;
  } catch {
    return false;
  }
}

describe('subscriptions: hostile input never gets a 5xx', () => {
  let h: SubsHarness;
  beforeAll(async () => { h = await startSubsHarness(); });
  afterAll(() => h.close());

  async function count(): Promise<number> {
    return ((await h.call(SUBS, undefined, { method: 'GET', token: h.subsToken })).body as unknown[]).length;
  }

  test('when the body is anything, then 201 with a Subscription, or a 400/422 ErrorInfo storing nothing', async () => {
    await fc.assert(fc.asyncProperty(fc.oneof(nearlyValid, fc.jsonValue()), async (body) => {
      const before = await count();
      const r = await h.call(SUBS, body, { token: h.subsToken });
      expect([201, 400, 422]).toContain(r.status);
      expect(await count()).toBe(r.status === 201 ? before + 1 : before);
    }), params());
  });

  test('when the sink credential and expiry fields hold arbitrary strings, then 201 or 400 storing nothing; a swap to all that was stored then leaves the service answering', async () => {
    await fc.assert(fc.asyncProperty(hostileFields, async (body) => {
      const before = await count();
      const r = await h.call(SUBS, body, { token: h.subsToken });
      expect([201, 400]).toContain(r.status);
      expect(await count()).toBe(r.status === 201 ? before + 1 : before);
      // What was accepted can be sent: a header Node takes, a Basic user that is the identifier.
      if (r.status === 201) expect(sendable(body.sinkCredential)).toBe(true);
    }), params());
    // Every subscription stored above is attempted (its sink refuses connections): none may end the process.
    expect(await h.swap('255712000001')).toBe(200);
    await new Promise((r) => setImmediate(r));
    expect((await fetch(`${h.url}/healthz`)).status).toBe(200);
    expect(await count()).toBeGreaterThanOrEqual(0);
  });

  test('when the body is any bytes, then 400 INVALID_ARGUMENT or a valid answer, never 5xx', async () => {
    await fc.assert(fc.asyncProperty(fc.string({ maxLength: 300 }), async (text) => {
      const r = await h.call(SUBS, text, { token: h.subsToken });
      expect(r.status).toBeLessThan(500);
    }), params(50));
  });

  test('when the subscription id is anything, then 404 NOT_FOUND (or 400), never 5xx', async () => {
    // A malformed percent-encoding is a bad id, not a server error.
    expect((await h.call(`${SUBS}/%E0%A4%A`, undefined, { method: 'GET', token: h.subsToken })).status).toBe(400);
    const ids = fc.string({ minLength: 1, maxLength: 80 }).filter((id) => id !== '.' && id !== '..');
    await fc.assert(fc.asyncProperty(ids, fc.constantFrom('GET', 'DELETE'), async (id, method) => {
      const r = await h.call(`${SUBS}/${encodeURIComponent(id)}`, undefined, { method, token: h.subsToken });
      expect([400, 404]).toContain(r.status);
    }), params(50));
  });
});
