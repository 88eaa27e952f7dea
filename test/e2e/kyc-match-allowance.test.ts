import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { defaultFixturesPath, loadFixtures } from '../../src/simulator/fixtures';
import { Simulator, createSimulator } from '../../src/simulator/simulator';
import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { FULL, KYC_MATCH, KYC_MATCH_SCOPE, expectErrorInfo, subscriberWith } from '../support/kyc-match-fixtures';
import { until } from '../support/until';

/*
 * The KYC Match allowance holds (CONTRACT §11 amended, issue 29): fleet-wide or not at all
 * across a Redis outage, a use given back when customer records could not answer, and counter
 * keys that are keyed hashes, never a plain digest of the number. Two instances, one Redis of
 * the test's own, the real simulator and its fault admin over HTTP.
 */

jest.setTimeout(90_000);
const LIMIT = 10;

async function storeOf(c: CamaraHarness): Promise<string> {
  return ((await (await fetch(`${c.url}/readyz`)).json()) as { store: string }).store;
}

describe('KYC Match allowance across two instances on one Redis', () => {
  let redis: RedisProcess;
  let sim: Simulator;
  let simBase: string;
  let a: CamaraHarness;
  let b: CamaraHarness;
  let keyDir: string;
  const prefix = `kma${Date.now().toString(36)}:`;

  beforeAll(async () => {
    redis = await startRedis();
    sim = createSimulator({ subscribers: loadFixtures(defaultFixturesPath()), synthetic: false });
    simBase = await sim.listen(0);
    keyDir = mkdtempSync(join(tmpdir(), 'vc-kyc-key-'));
    writeFileSync(join(keyDir, 'kyc-match.key'), randomBytes(32).toString('base64'), { mode: 0o600 });
    const env = {
      REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix, SIM_BASE: simBase, KYC_MATCH_KEY_FILE: join(keyDir, 'kyc-match.key'),
      // The crm breaker opens within the test's 20 failures and closes soon after the fault is lifted.
      BREAKER_VOLUME_THRESHOLD: '4', BREAKER_RESET_TIMEOUT_MS: '500',
    };
    [a, b] = await Promise.all([startCamaraHarness({ simulator: sim, env }), startCamaraHarness({ simulator: sim, env })]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await sim?.close();
    await redis?.stop();
    rmSync(keyDir, { recursive: true, force: true });
  });

  const tokens = () => Promise.all([a.tokens.twoLegged({ scope: KYC_MATCH_SCOPE }), b.tokens.twoLegged({ scope: KYC_MATCH_SCOPE })]);

  it('when customer records are down (simulator fault admin) and their breaker opens, then 20 requests get 503 and give their count back: once records are up, 10 are answered, then 429', async () => {
    const phone = subscriberWith(a, FULL, '25571260');
    const [ta, tb] = await tokens();
    const body = { phoneNumber: phone, birthdate: '1990-05-17' };
    const fault = (down: boolean) => fetch(`${simBase}/__admin/faults/crm`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ down }) });
    expect((await fault(true)).status).toBe(200);
    try {
      for (let i = 0; i < 20; i++) {
        const r = await (i % 2 === 0 ? a : b).call(KYC_MATCH, body, { token: i % 2 === 0 ? ta : tb });
        expectErrorInfo(r, 503, 'UNAVAILABLE');
      }
      // Both kinds of 503 were given: customer records failing, then the open breaker refusing.
      const crm = async (c: CamaraHarness) => ((await (await fetch(`${c.url}/readyz`)).json()) as { upstreams: Record<string, string> }).upstreams.crm;
      // Open, or already half-open when the reset timeout passed on a slow machine: it opened either way.
      for (const state of [await crm(a), await crm(b)]) expect(['open', 'half_open']).toContain(state);
    } finally {
      expect((await fault(false)).status).toBe(200);
    }
    // The breakers close again once a call after their reset time succeeds.
    await until(async () => (await a.call(KYC_MATCH, { phoneNumber: subscriberWith(a, FULL, '25571261'), gender: 'MALE' }, { token: ta })).status === 200, 'customer records answer on a');
    await until(async () => (await b.call(KYC_MATCH, { phoneNumber: subscriberWith(a, FULL, '25571262'), gender: 'MALE' }, { token: tb })).status === 200, 'customer records answer on b');
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) statuses.push((await (i % 2 === 0 ? a : b).call(KYC_MATCH, body, { token: i % 2 === 0 ? ta : tb })).status);
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), 429, 429]);
  });

  it('when the allowance is counted, then no Redis key equals or contains a plain SHA-256 of the number (hex, base64 or base64url, whole or cut)', async () => {
    const phone = subscriberWith(a, FULL, '25571263');
    const [ta] = await tokens();
    expect((await a.call(KYC_MATCH, { phoneNumber: phone, gender: 'MALE' }, { token: ta })).status).toBe(200);
    const raw = new Redis(redis.url);
    try {
      const keys = await raw.keys(`${prefix}*`);
      // Positive control: the allowance's counters are there to search.
      expect(keys.filter((k) => k.includes(':q:km:')).length).toBeGreaterThan(0);
      const digests = [phone, phone.slice(1)].flatMap((n) => (['hex', 'base64', 'base64url'] as const)
        .map((enc) => createHash('sha256').update(n).digest(enc)));
      for (const key of keys) for (const d of digests) expect([key, key.includes(d.slice(0, 16)) || key === d]).toEqual([key, false]);
    } finally {
      raw.disconnect();
    }
  });

  it('when the allowance is spent and Redis goes away, then both instances answer 503 UNAVAILABLE with Retry-After (no answer counted per instance); when Redis returns empty, at most one more allowance is answered: 20 in the day, not 30', async () => {
    const phone = subscriberWith(a, FULL, '25571264');
    const [ta, tb] = await tokens();
    const body = { phoneNumber: phone, birthdate: '2000-01-01' };
    const ask = async (i: number) => (i % 2 === 0 ? a : b).call(KYC_MATCH, body, { token: i % 2 === 0 ? ta : tb });
    const answered: number[] = [];
    const tally = (status: number) => { if (status === 200) answered.push(status); return status; };

    // A 503 (a store or upstream too slow on a loaded machine) is retryable and counts nothing:
    // what is judged is the sequence of the other answers.
    const before: number[] = [];
    for (let i = 0; before.length < LIMIT + 4 && i < 3 * (LIMIT + 4); i++) {
      const status = tally((await ask(i)).status);
      if (status !== 503) before.push(status);
    }
    expect(before).toEqual([...Array<number>(LIMIT).fill(200), 429, 429, 429, 429]);

    await redis.stop();
    await until(async () => (await storeOf(a)) === 'degraded' && (await storeOf(b)) === 'degraded', 'both instances degraded');
    const during: number[] = [];
    for (let i = 0; i < 2 * LIMIT; i++) {
      const r = await ask(i);
      expectErrorInfo(r, 503, 'UNAVAILABLE');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      during.push(tally(r.status));
    }
    // Positive control: the instances answer while degraded; only the allowance is refused.
    expect((await a.call('/sim-swap/v2/check', { phoneNumber: '+255712000001' })).status).toBe(200);
    expect(during).toEqual(Array<number>(2 * LIMIT).fill(503));

    await redis.restart();
    await until(async () => (await storeOf(a)) === 'redis' && (await storeOf(b)) === 'redis', 'both instances back on Redis');
    const after: number[] = [];
    for (let i = 0; i < LIMIT + 4; i++) after.push(tally((await ask(i)).status));
    // The counters went with Redis's memory: one more allowance (docs/kyc-match.md, residual risk), then 429 again.
    expect(after).toEqual([...Array<number>(LIMIT).fill(200), 429, 429, 429, 429]);
    expect(answered).toHaveLength(2 * LIMIT);
  });
});

describe('KYC Match allowance in memory at its bound (MEMORY_CACHE_MAX_ENTRIES=100)', () => {
  let c: CamaraHarness;
  beforeAll(async () => { c = await startCamaraHarness({ env: { MEMORY_CACHE_MAX_ENTRIES: '100' } }); });
  afterAll(() => c?.close());

  it('when the allowance for a number is spent and 100 other numbers are asked, then the number is still refused (429), and a number past the bound gets 503, not a forgotten count', async () => {
    const token = await c.tokens.twoLegged({ scope: KYC_MATCH_SCOPE });
    const target = subscriberWith(c, FULL, '25571265');
    for (let i = 0; i < LIMIT; i++) expect((await c.call(KYC_MATCH, { phoneNumber: target, gender: 'MALE' }, { token })).status).toBe(200);
    const others: number[] = [];
    for (let i = 0; i < 100; i++) others.push((await c.call(KYC_MATCH, { phoneNumber: `+2557127${String(i).padStart(5, '0')}`, gender: 'MALE' }, { token })).status);
    // 99 others fill the bound beside the target (answered 404: not subscribers, but counted); the 100th is refused.
    expect(others.slice(0, 99).every((s) => s === 404)).toBe(true);
    expect(others[99]).toBe(503);
    const r = await c.call(KYC_MATCH, { phoneNumber: target, gender: 'MALE' }, { token });
    expectErrorInfo(r, 429, 'TOO_MANY_REQUESTS');
  });
});
