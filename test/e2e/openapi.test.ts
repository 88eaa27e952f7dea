import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStateStore } from '../../src/verification/state/memory-state-store';
import { systemClock } from '../../src/kernel/clock';
import { Harness, Reply, postJson, startHarness, txnId } from '../support/harness';
import { HeaderSource, OPENAPI_FILE, OpenApiSpec, partnerApiSpec } from '../support/openapi-validator';
import { signedQuery } from '../support/signing';

/*
 * docs/openapi.yaml, the partners' reference for the legacy routes: served as written, true to CONTRACT §1, and strict
 * enough that a wrong body fails. Every REST reply in the e2e suites is validated against it
 * by the harness (test/support/harness.ts); this suite checks the document and the checker.
 */

type Op = 'kyc' | 'sim_swap';
const PATHS: Record<Op, string> = { kyc: '/eai/verify_customer/query/kyc', sim_swap: '/eai/verify_customer/query/sim_swap' };
const headers = (h: Record<string, string> = {}): HeaderSource => {
  const all: Record<string, string> = { 'content-type': 'application/json', 'x-correlator': 'c-1', ...h };
  return { get: (name: string) => all[name.toLowerCase()] ?? null };
};

describe('GET /openapi.yaml', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(() => h.close());

  it('when it is asked, then docs/openapi.yaml is served as written, as application/yaml', async () => {
    const res = await fetch(`${h.url}/openapi.yaml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/yaml/);
    const text = await res.text();
    expect(text).toBe(readFileSync(OPENAPI_FILE, 'utf8'));
    const spec = OpenApiSpec.parse(text);
    expect(spec.doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(Object.keys(spec.doc.paths as object).sort()).toEqual(Object.values(PATHS).sort());
  });

  it('when another method is used on the document path, then it is an unknown route (404 11111)', async () => {
    const r = await postJson(`${h.url}/openapi.yaml`, {});
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: '11111', desc: expect.stringMatching(/^Error Process/) as unknown });
  });
});

describe('the document says what CONTRACT §1 says', () => {
  const spec = partnerApiSpec();

  it.each<[Op, string[]]>([
    ['kyc', ['200', '400', '401', '403', '409', '413', '429', '500', '503']],
    ['sim_swap', ['200', '400', '401', '403', '404', '409', '413', '429', '500', '503']],
  ])('%s documents exactly the statuses of the condition table', (op, statuses) => {
    expect(spec.statuses('post', PATHS[op]).sort()).toEqual(statuses);
  });

  it('when the document is resolved, then every $ref resolves', () => {
    const refs = [...JSON.stringify(spec.doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of refs) expect(() => spec.resolve(ref)).not.toThrow();
  });

  it("when the document's examples are checked, then each is valid against its own schema", () => {
    let checked = 0;
    for (const path of Object.values(PATHS)) {
      const op = spec.operation('post', path)!;
      const media = (op.requestBody as { content: Record<string, { schema: object; example?: unknown }> }).content['application/json'];
      expect(spec.validate(media.schema as never, media.example, 'request example')).toEqual([]);
      checked++;
      for (const [status, response] of Object.entries(op.responses as Record<string, object>)) {
        const content = (('$ref' in response ? spec.resolve((response as { $ref: string }).$ref) : response) as { content?: Record<string, { schema: object; example?: unknown; examples?: Record<string, { value: unknown }> }> }).content?.['application/json'];
        const examples = [content?.example, ...Object.values(content?.examples ?? {}).map((e) => e.value)].filter((e) => e !== undefined);
        for (const example of examples) {
          expect([status, spec.validate(content!.schema as never, example, 'example')]).toEqual([status, []]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it("when the request schemas are read, then they carry the contract's txn_id, msisdn and max_age rules", () => {
    const req = spec.resolve('#/components/schemas/SimSwapRequest');
    expect(req.required).toEqual(['txn_id', 'msisdn']);
    const ok = (v: unknown) => spec.validate(req, v).length === 0;
    expect(ok({ txn_id: 'a.b_c:d-1', msisdn: '+255712000001', max_age: 2400, extra: true })).toBe(true);
    expect(ok({ txn_id: 'a'.repeat(26), msisdn: '255712000001' })).toBe(false);
    expect(ok({ txn_id: 'a b', msisdn: '255712000001' })).toBe(false);
    expect(ok({ txn_id: 'a', msisdn: '255712000001', max_age: 0 })).toBe(false);
    expect(ok({ txn_id: 'a', msisdn: '255712000001', max_age: 1.5 })).toBe(false);
    expect(ok({ txn_id: 'a', msisdn: 255712000001 })).toBe(false);
  });
});

describe('the checker rejects what the contract forbids', () => {
  const spec = partnerApiSpec();
  const errors = (op: Op, status: number, body: unknown, h = headers()) => spec.responseErrors('post', PATHS[op], status, h, body);
  const kycOk = { code: '00000', desc: 'Success', result: { msisdn: '0712000001', is_prepaid: 'true', is_active: 'false', is_valid: 'true' } };
  const swapped = { code: '00000', desc: 'Success', result: { msisdn: '255712000006', sim_swapped: 'true', sim_swapped_dt: '2026-11-20T11:15:00+03:00' } };

  it("when the contract's own examples are checked, then they are accepted", () => {
    expect(errors('kyc', 200, kycOk)).toEqual([]);
    expect(errors('sim_swap', 200, swapped)).toEqual([]);
    expect(errors('sim_swap', 200, { code: '00000', desc: 'Success', result: { msisdn: '255712000001', sim_swapped: 'false' } })).toEqual([]);
    expect(errors('kyc', 401, { code: '11111', desc: 'Error Process: authentication failed' })).toEqual([]);
    expect(errors('sim_swap', 404, { response: { code: '11111', desc: 'Error Process' } })).toEqual([]);
    expect(errors('kyc', 503, { code: '9999', desc: 'Unexpected system Error: upstream unavailable' }, headers({ 'retry-after': '10' }))).toEqual([]);
  });

  it.each<[string, Op, number, unknown, HeaderSource | null]>([
    ['a real boolean', 'kyc', 200, { ...kycOk, result: { ...kycOk.result, is_valid: true } }, null],
    ['an extra key in result', 'kyc', 200, { ...kycOk, result: { ...kycOk.result, name: 'x' } }, null],
    ['an extra top-level key', 'kyc', 200, { ...kycOk, extra: 1 }, null],
    ['a missing key', 'kyc', 200, { code: '00000', desc: 'Success', result: { msisdn: '0712000001', is_prepaid: 'true', is_active: 'true' } }, null],
    ['the success code on a failure status', 'kyc', 400, { code: '00000', desc: 'Success' }, null],
    ['9999 on a 4xx', 'kyc', 400, { code: '9999', desc: 'Unexpected system Error' }, null],
    ['11111 on a 5xx', 'kyc', 503, { code: '11111', desc: 'Error Process' }, headers({ 'retry-after': '1' })],
    ['a desc that does not start with the seed message', 'kyc', 400, { code: '11111', desc: 'bad request' }, null],
    ['the KYC failure shape on SIM swap', 'sim_swap', 400, { code: '11111', desc: 'Error Process' }, null],
    ['the SIM swap failure shape on KYC', 'kyc', 400, { response: { code: '11111', desc: 'Error Process' } }, null],
    ['sim_swapped_dt in UTC with Z', 'sim_swap', 200, { ...swapped, result: { ...swapped.result, sim_swapped_dt: '2026-11-20T08:15:00Z' } }, null],
    ['sim_swapped_dt with milliseconds', 'sim_swap', 200, { ...swapped, result: { ...swapped.result, sim_swapped_dt: '2026-11-20T08:15:00.000+00:00' } }, null],
    ['sim_swapped "true" without a date', 'sim_swap', 200, { ...swapped, result: { msisdn: '255712000006', sim_swapped: 'true' } }, null],
    ['sim_swapped "false" with a date', 'sim_swap', 200, { ...swapped, result: { ...swapped.result, sim_swapped: 'false' } }, null],
    ['a status the contract does not have', 'kyc', 418, { code: '11111', desc: 'Error Process' }, null],
    ['404 on KYC', 'kyc', 404, { code: '11111', desc: 'Error Process' }, null],
    ['429 without Retry-After', 'kyc', 429, { code: '11111', desc: 'Error Process' }, null],
    ['503 with a Retry-After that is not whole seconds', 'sim_swap', 503, { response: { code: '9999', desc: 'Unexpected system Error' } }, headers({ 'retry-after': '0.5' })],
    ['no x-correlator', 'kyc', 200, kycOk, { get: (n: string) => (n.toLowerCase() === 'content-type' ? 'application/json' : null) }],
    ['a text/html body', 'kyc', 400, { code: '11111', desc: 'Error Process' }, headers({ 'content-type': 'text/html' })],
    ['no JSON at all', 'kyc', 500, undefined, null],
  ])('rejects %s', (_name, op, status, body, h) => {
    expect(errors(op, status, body, h ?? headers()).length).toBeGreaterThan(0);
  });

  it('when a keyword is unknown (strict ajv), then it throws rather than skip it', () => {
    expect(() => spec.validate({ type: 'string', patern: '^x$' }, 'x')).toThrow(/unknown keyword: "patern"/);
  });

  it('when a format is wrong, then it is caught too (ajv-formats)', () => {
    expect(spec.validate({ type: 'string', format: 'date-time' }, '2026-11-20T11:15:00+03:00')).toEqual([]);
    expect(spec.validate({ type: 'string', format: 'date-time' }, '2026-02-30T11:15:00+03:00').length).toBeGreaterThan(0);
  });

  it('when a server answers off the document, then the harness throws, naming the problem', async () => {
    const liar = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-correlator', 'x');
      res.end(JSON.stringify({ code: '00000', desc: 'Success', result: { msisdn: '1', is_prepaid: true, is_active: 'true', is_valid: 'true' } }));
    });
    await new Promise<void>((r) => liar.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(liar.address() as AddressInfo).port}`;
      await expect(postJson(`${url}${PATHS.kyc}`, {})).rejects.toThrow(/does not match verify-customer partner API[\s\S]*body\/result\/is_prepaid: must be string/);
      // Paths outside the document are not checked.
      expect((await postJson(`${url}/elsewhere`, {})).status).toBe(200);
    } finally {
      await new Promise((r) => liar.close(r));
    }
  });
});

describe('the real server answers every documented status as documented', () => {
  it('when each status of the condition table is answered, in both shapes, then it passes the document (the harness validates every reply)', async () => {
    const store = new MemoryStateStore({ clock: systemClock, maxCacheEntries: 100, maxTxnEntries: 100 });
    const file = join(mkdtempSync(join(tmpdir(), 'vc-openapi-')), 'partners.json');
    writeFileSync(file, JSON.stringify({ partners: [
      { name: 'bank', apiKey: 'bank-key', secret: 'bank-secret', operations: ['kyc', 'sim_swap'] },
      { name: 'kyc-only', apiKey: 'kyc-key', secret: 'kyc-secret', operations: ['kyc'] },
      { name: 'swap-only', apiKey: 'swap-key', secret: 'swap-secret', operations: ['sim_swap'] },
    ] }));
    const h = await startHarness({ env: { PARTNERS_FILE: file }, serverOptions: { store } });
    const bank = { apiKey: 'bank-key', secret: 'bank-secret' };
    const post = (op: Op, body: unknown, query = signedQuery(bank)) => h.post(op, body, { query });
    const seen: Record<Op, Set<string>> = { kyc: new Set(), sim_swap: new Set() };
    const note = (op: Op, r: Reply) => { seen[op].add(String(r.status)); return r; };
    try {
      for (const op of ['kyc', 'sim_swap'] as Op[]) {
        note(op, await post(op, { txn_id: txnId(), msisdn: '255712000006' }));
        note(op, await post(op, { txn_id: txnId(), msisdn: '255712000001' }));
        note(op, await post(op, { txn_id: txnId(), msisdn: '255799999999' }));
        note(op, await post(op, '[]'));
        note(op, await post(op, { txn_id: txnId(), msisdn: '255712000001' }, 'api_key=bank-key&sig=00'));
        const other = op === 'kyc' ? { apiKey: 'swap-key', secret: 'swap-secret' } : { apiKey: 'kyc-key', secret: 'kyc-secret' };
        note(op, await post(op, { txn_id: txnId(), msisdn: '255712000001' }, signedQuery(other)));
        const id = txnId();
        note(op, await post(op, { txn_id: id, msisdn: '255712000001' }));
        const replay = note(op, await post(op, { txn_id: id, msisdn: '255712000001' }));
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        note(op, await post(op, { txn_id: id, msisdn: '255712000002' }));
        note(op, await post(op, { txn_id: txnId(), msisdn: '255712000001', pad: 'x'.repeat(9000) }));
        h.sim.setFault(op === 'kyc' ? 'hlr' : 'sim', { down: true });
        note(op, await post(op, { txn_id: txnId(), msisdn: '255712000005' }));
        h.sim.resetFaults();
        const claim = store.txns.claim.bind(store.txns);
        store.txns.claim = async () => { throw new Error('boom'); };
        note(op, await post(op, { txn_id: txnId(), msisdn: '255712000001' }));
        store.txns.claim = claim;
      }
    } finally {
      await h.close();
    }
    // 429 comes from the rate-limit and throttle suites (rest-conditions, security), through the same harness.
    expect([...seen.kyc].sort()).toEqual(['200', '400', '401', '403', '409', '413', '500', '503']);
    expect([...seen.sim_swap].sort()).toEqual(['200', '400', '401', '403', '404', '409', '413', '500', '503']);
  });
});
