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

describe('subscriptions: hostile input never gets a 5xx', () => {
  let h: SubsHarness;
  beforeAll(async () => { h = await startSubsHarness(); });
  afterAll(() => h.close());

  async function count(): Promise<number> {
    return ((await h.call(SUBS, undefined, { method: 'GET', token: h.subsToken })).body as unknown[]).length;
  }

  test('any body: 201 with a Subscription, or 400/422 ErrorInfo storing nothing', async () => {
    await fc.assert(fc.asyncProperty(fc.oneof(nearlyValid, fc.jsonValue()), async (body) => {
      const before = await count();
      const r = await h.call(SUBS, body, { token: h.subsToken });
      expect([201, 400, 422]).toContain(r.status);
      expect(await count()).toBe(r.status === 201 ? before + 1 : before);
    }), params());
  });

  test('any bytes as the body: 400 INVALID_ARGUMENT or a valid answer, never 5xx', async () => {
    await fc.assert(fc.asyncProperty(fc.string({ maxLength: 300 }), async (text) => {
      const r = await h.call(SUBS, text, { token: h.subsToken });
      expect(r.status).toBeLessThan(500);
    }), params(50));
  });

  test('any subscription id: 404 NOT_FOUND (or 400), never 5xx', async () => {
    // A malformed percent-encoding is a bad id, not a server error.
    expect((await h.call(`${SUBS}/%E0%A4%A`, undefined, { method: 'GET', token: h.subsToken })).status).toBe(400);
    const ids = fc.string({ minLength: 1, maxLength: 80 }).filter((id) => id !== '.' && id !== '..');
    await fc.assert(fc.asyncProperty(ids, fc.constantFrom('GET', 'DELETE'), async (id, method) => {
      const r = await h.call(`${SUBS}/${encodeURIComponent(id)}`, undefined, { method, token: h.subsToken });
      expect([400, 404]).toContain(r.status);
    }), params(50));
  });
});
