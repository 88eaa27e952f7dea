import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { AdminHarness, startAdminHarness } from '../support/admin-harness';

/*
 * Hostile input on the admin API (CONTRACT §12): generated bodies and query strings — names,
 * operations, limits, grace values, unknown fields, wrong types, broken JSON — get a 400 problem
 * (or the success a valid one earns), never a 500, and a refused change writes nothing: the
 * registry file is byte for byte what it was. Every answer is checked against the document.
 */

const RUNS = 60;

const hostileString = fc.oneof(
  fc.string({ maxLength: 80 }), fc.constantFrom('', ' ', '../etc', 'a'.repeat(65), '\u0000', '<script>', 'kyc', 'demo-bank', '名前', '💥'),
);
const hostileNumber = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0, -1, 1e308, 2_592_001, 0.5, Number.MAX_SAFE_INTEGER + 2));
const anyValue = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null), fc.array(hostileString, { maxLength: 4 }), fc.dictionary(hostileString, hostileString, { maxKeys: 3 }));
const operations = fc.oneof(fc.array(fc.oneof(fc.constantFrom('kyc', 'sim_swap', 'kyc_match', 'device_swap'), hostileString), { maxLength: 8 }), anyValue);
const rateLimit = fc.oneof(fc.constant(null), fc.record({ perSecond: fc.oneof(hostileNumber, anyValue), burst: fc.oneof(hostileNumber, anyValue) }, { requiredKeys: [] }), anyValue);
const partnerFields = {
  name: fc.oneof(hostileString, anyValue), operations, kind: fc.oneof(fc.constantFrom('partner', 'internal'), anyValue),
  signature: fc.oneof(fc.constantFrom('md5', 'hmac-sha256'), anyValue), rateLimit, purpose: fc.oneof(hostileString, fc.constant(null), anyValue),
  enabled: fc.oneof(fc.boolean(), anyValue),
};
const unknownFields = fc.dictionary(fc.constantFrom('secret', 'apiKey', 'secrets', '__proto__', 'constructor', 'x'), anyValue, { maxKeys: 2 });
const body = (keys: (keyof typeof partnerFields)[]) => fc.tuple(
  fc.record(Object.fromEntries(keys.map((k) => [k, partnerFields[k]])) as { [k: string]: fc.Arbitrary<unknown> }, { requiredKeys: [] }),
  fc.option(unknownFields, { nil: undefined }),
).map(([b, extra]) => ({ ...b, ...extra }));

describe('admin API: hostile input', () => {
  let a: AdminHarness;
  let admin: { bearer: string };
  beforeAll(async () => {
    a = await startAdminHarness();
    admin = { bearer: a.tokens['admin-bot'] };
  }, 60_000);
  afterAll(() => a?.close());

  const registry = () => readFileSync(a.partnersFile, 'utf8');

  it('when generated partner bodies are posted, then each is 201, 400 or 409, never 500, and a refused one writes nothing', async () => {
    let created = 0;
    let refused = 0;
    await fc.assert(fc.asyncProperty(body(['name', 'operations', 'kind', 'signature', 'rateLimit', 'purpose']), async (b) => {
      const before = registry();
      const r = await a.call('POST', '/partners', admin, { body: b });
      expect([201, 400, 409]).toContain(r.status);
      if (r.status === 201) created++;
      else {
        refused++;
        expect(registry()).toBe(before);
      }
    }), { numRuns: RUNS });
    // Positive control: the generator reaches both sides.
    expect(refused).toBeGreaterThan(0);
    const valid = await a.call('POST', '/partners', admin, { body: { name: `valid-${created}`, operations: ['kyc'] } });
    expect(valid.status).toBe(201);
  });

  it('when generated patches are sent, then each is 200 or 400, never 500, and a refused one leaves the partner and file as they were', async () => {
    await fc.assert(fc.asyncProperty(body(['enabled', 'operations', 'kind', 'signature', 'rateLimit', 'purpose']), async (b) => {
      const before = registry();
      const r = await a.call('PATCH', '/partners/demo-fintech', admin, { body: b });
      expect([200, 400]).toContain(r.status);
      if (r.status === 400) expect(registry()).toBe(before);
    }), { numRuns: RUNS });
  });

  it('when generated rotation bodies are sent, then each is 201 or 400, never 500, and a refused one adds no secret', async () => {
    await fc.assert(fc.asyncProperty(fc.oneof(fc.record({ graceSeconds: fc.oneof(hostileNumber, anyValue) }, { requiredKeys: [] }), fc.tuple(unknownFields).map(([u]) => u), anyValue), async (b) => {
      const before = registry();
      const r = await a.call('POST', '/partners/demo-kyc-only/secrets', admin, { body: b });
      expect([201, 400]).toContain(r.status);
      if (r.status === 400) expect(registry()).toBe(before);
      else {
        // Keep at most two secrets live: revoke the older one so the next rotation starts the same.
        const p = (await a.call('GET', '/partners/demo-kyc-only', admin)).body as { secrets: { id: string }[] };
        if (p.secrets.length > 1) expect((await a.call('DELETE', `/partners/demo-kyc-only/secrets/${p.secrets[0].id}`, admin)).status).toBe(204);
      }
    }), { numRuns: 30 });
  });

  it('when bodies are not JSON objects (broken, arrays, scalars, huge), then 400 or 413 problems, never 500', async () => {
    const raws = ['{', '[]', '"x"', '1', 'null', '{"name":', `{"name":"${'x'.repeat(20_000)}"}`, '\u00ff\u00fe', '{"name":"a","name":"b","operations":[]}'];
    for (const raw of raws) {
      const before = registry();
      const r = await a.call('POST', '/partners', admin, { raw });
      expect([raw.slice(0, 20), [400, 413, 409, 201].includes(r.status)]).toEqual([raw.slice(0, 20), true]);
      if (r.status >= 400) expect(registry()).toBe(before);
    }
    const wrongType = await a.call('POST', '/partners', admin, { raw: '{}', headers: { 'content-type': 'text/plain' } });
    expect(wrongType.status).toBe(400);
  });

  it('when generated query strings are sent to the read routes, then each is 200 or 400, never 500', async () => {
    const compliance = { bearer: a.tokens['compliance-bot'] };
    const key = fc.constantFrom('from', 'to', 'partner', 'interval', 'msisdn', 'cursor', 'limit', 'hours', 'x');
    const query = fc.array(fc.tuple(key, fc.oneof(hostileString, fc.constantFrom('2026-11-01', '2026-11-01T00:00:00Z', 'day', 'hour', '0712000001', '9999', '-1'))), { maxLength: 4 })
      .map((pairs) => new URLSearchParams(pairs).toString());
    await fc.assert(fc.asyncProperty(fc.constantFrom('/usage', '/audit', '/changes', '/overview'), query, async (path, q) => {
      const r = await a.call('GET', `${path}?${q}`, compliance);
      expect([path, q, [200, 400].includes(r.status)]).toEqual([path, q, true]);
    }), { numRuns: RUNS * 2 });
  });
});
