import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { defaultFixturesPath, loadFixtures } from '../../src/simulator/fixtures';
import { Simulator, createSimulator } from '../../src/simulator/simulator';
import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { FULL, KYC_MATCH, KYC_MATCH_SCOPE, expectErrorInfo, subscriberWith } from '../support/kyc-match-fixtures';

/*
 * The guessing limit (CONTRACT §11): KYC_MATCH_MAX_PER_NUMBER_PER_DAY match requests per
 * partner, per number, per UTC day, for the whole fleet: two instances on one Redis count as one.
 */

jest.setTimeout(30_000);
const LIMIT = 3;

describe('KYC Match guessing limit across two instances on one Redis', () => {
  let redis: RedisProcess;
  let sim: Simulator;
  let a: CamaraHarness;
  let b: CamaraHarness;

  beforeAll(async () => {
    redis = await startRedis();
    sim = createSimulator({ subscribers: loadFixtures(defaultFixturesPath()), synthetic: false });
    const simBase = await sim.listen(0);
    const env = { REDIS_URL: redis.url, REDIS_KEY_PREFIX: `kml${Date.now().toString(36)}:`, SIM_BASE: simBase, KYC_MATCH_MAX_PER_NUMBER_PER_DAY: String(LIMIT) };
    [a, b] = await Promise.all([startCamaraHarness({ simulator: sim, env }), startCamaraHarness({ simulator: sim, env })]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await sim?.close();
    await redis?.stop();
  });

  it('when a partner has asked about a number the daily limit of times on either instance, then both refuse it with 429 and Retry-After until UTC midnight, before customer records are asked', async () => {
    const phone = subscriberWith(a, FULL, '25571250');
    const [ta, tb] = await Promise.all([a.tokens.twoLegged({ scope: KYC_MATCH_SCOPE }), b.tokens.twoLegged({ scope: KYC_MATCH_SCOPE })]);
    const body = { phoneNumber: phone, birthdate: '2000-01-01' };
    const statuses = [];
    for (const [h, t] of [[a, ta], [b, tb], [a, ta]] as const) statuses.push((await h.call(KYC_MATCH, body, { token: t })).status);
    expect(statuses).toEqual([200, 200, 200]);

    const crmCalls = sim.calls().crm;
    for (const [h, t] of [[a, ta], [b, tb]] as const) {
      const r = await h.call(KYC_MATCH, body, { token: t });
      expectErrorInfo(r, 429, 'TOO_MANY_REQUESTS');
      const now = Date.now();
      const toMidnightS = Math.ceil((Math.floor(now / 86_400_000) * 86_400_000 + 86_400_000 - now) / 1000);
      const retryAfter = Number(r.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(Math.abs(retryAfter - toMidnightS)).toBeLessThanOrEqual(2);
    }
    expect(sim.calls().crm).toBe(crmCalls);
  });

  it('when one number is used up, then another number, and another partner on the same number, are still answered', async () => {
    const phone = subscriberWith(a, FULL, '25571251');
    const other = subscriberWith(a, FULL, '25571252');
    const token = await a.tokens.twoLegged({ scope: KYC_MATCH_SCOPE });
    for (let i = 0; i < LIMIT; i++) expect((await b.call(KYC_MATCH, { phoneNumber: phone, gender: 'MALE' }, { token: await b.tokens.twoLegged({ scope: KYC_MATCH_SCOPE }) })).status).toBe(200);
    expect((await a.call(KYC_MATCH, { phoneNumber: phone, gender: 'MALE' }, { token })).status).toBe(429);
    expect((await a.call(KYC_MATCH, { phoneNumber: other, gender: 'MALE' }, { token })).status).toBe(200);
    const fintech = await a.tokens.twoLegged({ clientId: 'demo-hmac-key', clientSecret: 'demo-hmac-secret', scope: KYC_MATCH_SCOPE });
    expect((await a.call(KYC_MATCH, { phoneNumber: phone, gender: 'MALE' }, { token: fintech })).status).toBe(200);
  });
});
