import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStateStore } from '../../src/verification/state/memory-state-store';
import { systemClock } from '../../src/kernel/clock';
import { Harness, LegacyAnswer, asAnswer, postJson, startHarness, txnId } from '../support/harness';
import { DEMO, DEMO_DISABLED, DEMO_KYC_ONLY, signedQuery } from '../support/signing';

type Op = 'kyc' | 'sim_swap';
const OPS: Op[] = ['kyc', 'sim_swap'];

/** The failure body of each operation (CONTRACT §1.2), with its code. */
function expectFailure(op: Op, body: LegacyAnswer, code: '11111' | '9999'): void {
  const inner = op === 'kyc' ? body : body.response;
  if (op === 'kyc') expect(Object.keys(body).sort()).toEqual(['code', 'desc']);
  else expect(Object.keys(body)).toEqual(['response']);
  expect(Object.keys(inner ?? {}).sort()).toEqual(['code', 'desc']);
  expect(inner?.code).toBe(code);
  expect(inner?.desc).toMatch(code === '11111' ? /^Error Process(: .+)?$/ : /^Unexpected system Error(: .+)?$/);
}

describe.each(OPS)('REST %s: every condition of the contract answers with its code, status and shape', (op) => {
  let h: Harness;
  const valid = () => ({ txn_id: txnId(), msisdn: '255712000001' });

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('when the request succeeds, then it answers 200 00000 with exactly the contract keys', async () => {
    const r = await h.post(op, valid());
    expect(r.status).toBe(200);
    expect(r.body.code).toBe('00000');
    expect(r.body.desc).toBe('Success');
    expect(Object.keys(r.body)).toEqual(['code', 'desc', 'result']);
    expect(Object.keys(r.body.result ?? {})).toEqual(op === 'kyc'
      ? ['msisdn', 'is_prepaid', 'is_active', 'is_valid'] : ['msisdn', 'sim_swapped']);
  });

  it.each<[string, unknown]>([
    ['a JSON array', [{ txn_id: 'a', msisdn: '255712000001' }]],
    ['a JSON string', '"hello"'],
    ['malformed JSON', '{"txn_id": "a",'],
    ['an empty body', ''],
    ['a missing txn_id', { msisdn: '255712000001' }],
    ['a missing msisdn', { txn_id: 'abc' }],
    ['a numeric msisdn', { txn_id: 'abc', msisdn: 255712000001 }],
    ['a numeric txn_id', { txn_id: 12345, msisdn: '255712000001' }],
    ['a txn_id of 26 characters', { txn_id: 'a'.repeat(26), msisdn: '255712000001' }],
    ['an empty txn_id', { txn_id: '', msisdn: '255712000001' }],
    ['a txn_id with a space', { txn_id: 'a b', msisdn: '255712000001' }],
    ['a msisdn with letters', { txn_id: 'abc', msisdn: '25571200000x' }],
    ['a msisdn too short', { txn_id: 'abc', msisdn: '25571200' }],
    ['a msisdn of another country', { txn_id: 'abc', msisdn: '254712000001' }],
    ['a msisdn with spaces', { txn_id: 'abc', msisdn: '255 712 000 001' }],
  ])('refuses %s with 400 11111', async (_name, body) => {
    const r = await h.post(op, body);
    expect(r.status).toBe(400);
    expectFailure(op, r.body, '11111');
  });

  it('when the content type is wrong, then 400 11111', async () => {
    const r = await h.post(op, JSON.stringify(valid()), { contentType: 'text/plain' });
    expect(r.status).toBe(400);
    expectFailure(op, r.body, '11111');
  });

  it('when the content type is missing, then 400 11111', async () => {
    const r = await h.post(op, JSON.stringify(valid()), { contentType: null });
    expect(r.status).toBe(400);
    expectFailure(op, r.body, '11111');
  });

  it('when the body has unknown extra fields, then they are ignored', async () => {
    const r = await h.post(op, { ...valid(), extra: { deep: [1, 2] }, __proto__x: 1 });
    expect(r.status).toBe(200);
  });

  it('when the body is over 8 KiB, then 413 11111', async () => {
    const r = await h.post(op, { ...valid(), pad: 'x'.repeat(9000) });
    expect(r.status).toBe(413);
    expectFailure(op, r.body, '11111');
  });

  it.each<[string, () => string]>([
    ['no api_key', () => signedQuery(DEMO).replace(/api_key=[^&]*&/, '')],
    ['an unknown api_key', () => signedQuery({ apiKey: 'nobody-key', secret: 'x' })],
    ['a disabled api_key', () => signedQuery(DEMO_DISABLED)],
    ['no sig', () => signedQuery(DEMO).replace(/&sig=[^&]*/, '')],
    ['a wrong sig', () => signedQuery({ ...DEMO, secret: 'wrong' })],
    ['a timestamp ten minutes old', () => signedQuery(DEMO, { timestamp: String(Math.floor(Date.now() / 1000) - 600) })],
    ['a timestamp that is not a number', () => signedQuery(DEMO, { timestamp: 'yesterday' })],
    ['a repeated api_key', () => `${signedQuery(DEMO)}&api_key=demo-key`],
  ])('refuses %s with 401 11111 without saying whether the key exists', async (_name, query) => {
    const r = await h.post(op, valid(), { query: query() });
    expect(r.status).toBe(401);
    expectFailure(op, r.body, '11111');
    expect(r.text).not.toContain('demo-secret');
  });

  it('when a key is unknown or disabled, then the answer has the same text as a wrong signature', async () => {
    const texts = await Promise.all([
      h.post(op, valid(), { query: signedQuery({ apiKey: 'nobody-key', secret: 'x' }) }),
      h.post(op, valid(), { query: signedQuery(DEMO_DISABLED) }),
      h.post(op, valid(), { query: signedQuery({ ...DEMO, secret: 'wrong' }) }),
    ]);
    expect(new Set(texts.map((t) => t.text)).size).toBe(1);
  });

  it('when the partner may not use an operation, then 403, and the ones it may are allowed', async () => {
    const r = await h.post(op, valid(), { query: signedQuery(DEMO_KYC_ONLY) });
    if (op === 'kyc') {
      expect(r.status).toBe(200);
    } else {
      expect(r.status).toBe(403);
      expectFailure(op, r.body, '11111');
    }
  });

  it('when a txn_id was already used for another msisdn, then 409', async () => {
    const id = txnId();
    expect((await h.post(op, { txn_id: id, msisdn: '255712000001' })).status).toBe(200);
    const r = await h.post(op, { txn_id: id, msisdn: '255712000002' });
    expect(r.status).toBe(409);
    expectFailure(op, r.body, '11111');
  });

  it('when the upstream is down and nothing is cached, then 503 9999 with Retry-After', async () => {
    h.sim.setFault(op === 'kyc' ? 'hlr' : 'sim', { down: true });
    try {
      const r = await h.post(op, { txn_id: txnId(), msisdn: '255712000002' });
      expect(r.status).toBe(503);
      expectFailure(op, r.body, '9999');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      h.sim.resetFaults();
    }
  });

  it('when the method is wrong on an unknown route under the operation, then 405', async () => {
    const res = await fetch(`${h.url}/eai/verify_customer/query/${op}?${signedQuery(DEMO)}`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expectFailure(op, asAnswer(await res.json()), '11111');
  });
});

describe('REST conditions needing their own setup', () => {
  it('when the number is not a subscriber, then SIM swap is 404 11111 in the SIM swap shape and KYC says all false', async () => {
    const h = await startHarness();
    try {
      const sim = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255799999999' });
      expect(sim.status).toBe(404);
      expectFailure('sim_swap', sim.body, '11111');
      const kyc = await h.post('kyc', { txn_id: txnId(), msisdn: '255799999999' });
      expect(kyc.status).toBe(200);
      expect(kyc.body.result).toEqual({ msisdn: '255799999999', is_prepaid: 'false', is_active: 'false', is_valid: 'false' });
    } finally {
      await h.close();
    }
  });

  it('when a partner is over its rate limit, then 429 11111 with Retry-After, in each shape', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vc-partners-'));
    const file = join(dir, 'partners.json');
    writeFileSync(file, JSON.stringify({ partners: [
      { name: 'slow-bank', apiKey: 'slow-key', secret: 'slow-secret', operations: ['kyc', 'sim_swap'], rateLimit: { perSecond: 0.5, burst: 2 } },
    ] }));
    const h = await startHarness({ env: { PARTNERS_FILE: file } });
    const partner = { apiKey: 'slow-key', secret: 'slow-secret' };
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) codes.push((await h.post('kyc', { txn_id: txnId(), msisdn: '255712000001' }, { query: signedQuery(partner) })).status);
      expect(codes).toEqual([200, 200, 429]);
      const r = await h.post('sim_swap', { txn_id: txnId(), msisdn: '255712000001' }, { query: signedQuery(partner) });
      expect(r.status).toBe(429);
      expectFailure('sim_swap', r.body, '11111');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await h.close();
    }
  });

  it('when anything unexpected happens, then 500 9999 with no stack trace in the body', async () => {
    const store = new MemoryStateStore({ clock: systemClock, maxCacheEntries: 100, maxTxnEntries: 100 });
    store.txns.claim = async () => { throw new TypeError('boom at secret place'); };
    const h = await startHarness({ serverOptions: { store } });
    try {
      for (const op of OPS) {
        const r = await h.post(op, { txn_id: txnId(), msisdn: '255712000001' });
        expect(r.status).toBe(500);
        expectFailure(op, r.body, '9999');
        expect(r.text).not.toMatch(/boom|TypeError|at /);
      }
    } finally {
      await h.close();
    }
  });

  it('when the path is unknown, then 404 11111 in the flat shape', async () => {
    const h = await startHarness();
    try {
      const r = await postJson(`${h.url}/eai/verify_customer/query/other`, {});
      expect(r.status).toBe(404);
      expectFailure('kyc', r.body, '11111');
    } finally {
      await h.close();
    }
  });
});
