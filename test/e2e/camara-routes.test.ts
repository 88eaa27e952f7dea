import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CamaraHarness, CamaraReply as Reply, startCamaraHarness } from '../support/camara-harness';
import { camaraResponseErrors } from '../support/camara-spec';
import { captureLogs } from '../support/log-capture';
import { generateSigningJwk } from '../support/oauth';
import { DEMO, signedQuery, txnId } from '../support/signing';

/*
 * The CAMARA routes beyond the official scenarios (bad input and upstream faults): body
 * and transport errors, tokens and scopes, rate limits, upstream faults, the shared cache
 * and the metrics' interface label. Every reply is validated against the official documents.
 */

const CHECK = '/sim-swap/v2/check';
const RETRIEVE = '/sim-swap/v2/retrieve-date';
const TENURE = '/kyc-tenure/v0.2/check-tenure';

function expectErrorInfo(r: Reply, status: number, code: string): void {
  const body = r.body as { status?: unknown; code?: unknown } | undefined;
  expect([r.status, body?.code]).toEqual([status, code]);
  expect(Object.keys(body ?? {}).sort()).toEqual(['code', 'message', 'status']);
  expect(body?.status).toBe(status);
}

describe('CAMARA routes: bad input, tokens, faults', () => {
  let c: CamaraHarness;
  beforeAll(async () => {
    c = await startCamaraHarness({ env: { BODY_LIMIT_BYTES: '1024' } });
  });
  afterAll(() => c?.close());

  it.each<[string, string | undefined, string | null]>([
    ['malformed JSON', '{"phoneNumber": "+255712000001",', 'application/json'],
    ['a JSON array', '[{"phoneNumber":"+255712000001"}]', 'application/json'],
    ['a JSON string', '"+255712000001"', 'application/json'],
    ['a form body', 'phoneNumber=%2B255712000001', 'application/x-www-form-urlencoded'],
    ['JSON as text/plain', '{"phoneNumber":"+255712000001"}', 'text/plain'],
    ['no content type', '{"phoneNumber":"+255712000001"}', null],
    ['a UTF-16 charset', '{"phoneNumber":"+255712000001"}', 'application/json; charset=utf-16'],
    ['a body over BODY_LIMIT_BYTES', JSON.stringify({ phoneNumber: '+255712000001', pad: 'x'.repeat(2000) }), 'application/json'],
  ])('%s gets 400 INVALID_ARGUMENT on each operation', async (_name, body, contentType) => {
    for (const path of [CHECK, RETRIEVE, TENURE]) expectErrorInfo(await c.call(path, body, { contentType }), 400, 'INVALID_ARGUMENT');
  });

  it('when the body has a property its schema does not declare, __proto__ included, then 400 INVALID_ARGUMENT names it', async () => {
    for (const [body, name] of [['{"phoneNumber":"+255712000006","maxAge":24,"extra":{"a":1}}', 'extra'], ['{"phoneNumber":"+255712000006","__proto__":{"swapped":false}}', '__proto__']]) {
      const r = await c.call(CHECK, body);
      expectErrorInfo(r, 400, 'INVALID_ARGUMENT');
      expect((r.body as { message: string }).message).toContain(`"${name}"`);
    }
  });

  it('when any field has a wrong type, then 400 INVALID_ARGUMENT', async () => {
    for (const [path, body] of [[CHECK, { phoneNumber: ['+255712000001'] }], [CHECK, { phoneNumber: '+255712000001', maxAge: '24' }],
      [RETRIEVE, { phoneNumber: { e164: '+255712000001' } }], [TENURE, { phoneNumber: '+255712000001', tenureDate: { y: 2020 } }]] as const) {
      expectErrorInfo(await c.call(path, body), 400, 'INVALID_ARGUMENT');
    }
  });

  it('when another method is used on the three paths, then 405 METHOD_NOT_ALLOWED with Allow: POST; when the path under the roots is unknown, then 404 NOT_FOUND', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const r = await c.call(CHECK, method === 'GET' ? undefined : {}, { method });
      expectErrorInfo(r, 405, 'METHOD_NOT_ALLOWED');
      expect(r.headers.get('allow')).toBe('POST');
    }
    for (const path of ['/sim-swap/v2/checks', '/sim-swap/v2', '/kyc-tenure/v0.2/check', '/sim-swap/v2/retrieve-date/x']) {
      expectErrorInfo(await c.call(path, { phoneNumber: '+255712000001' }), 404, 'NOT_FOUND');
    }
  });

  it('when the path is in any case or has one trailing slash, then it matches as the legacy routes do', async () => {
    expect((await c.call('/SIM-SWAP/v2/Check/', { phoneNumber: '+255712000006' })).body).toEqual({ swapped: true });
  });

  it('when x-correlator is valid, then it is echoed; when absent, then one is generated; when invalid, then 400', async () => {
    const echoed = await c.call(CHECK, { phoneNumber: '+255712000001' }, { headers: { 'x-correlator': 'abc-123' } });
    expect(echoed.headers.get('x-correlator')).toBe('abc-123');
    const generated = await c.call(CHECK, { phoneNumber: '+255712000001' });
    expect(generated.headers.get('x-correlator')).toMatch(/^[0-9a-f-]{36}$/);
    for (const bad of ['a b', 'x'.repeat(257), 'é', 'a,b']) {
      const r = await c.call(CHECK, { phoneNumber: '+255712000001' }, { headers: { 'x-correlator': bad } });
      expectErrorInfo(r, 400, 'INVALID_ARGUMENT');
      expect(r.headers.get('x-correlator')).not.toBe(bad);
    }
  });

  it('when the Bearer scheme is in any case, then it is taken; when another scheme or a malformed header, then 401 UNAUTHENTICATED', async () => {
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      expect((await c.call(CHECK, { phoneNumber: '+255712000001' }, { authorization: `${scheme} ${c.token}` })).status).toBe(200);
    }
    for (const authorization of [`Basic ${Buffer.from('demo-key:demo-secret').toString('base64')}`, 'Bearer', `Bearer ${c.token} extra`, c.token, '']) {
      expectErrorInfo(await c.call(CHECK, { phoneNumber: '+255712000001' }, { authorization }), 401, 'UNAUTHENTICATED');
    }
  });

  it("when a token lacks the operation's scope, then 403 PERMISSION_DENIED; when it has either SIM-swap scope, then that suffices", async () => {
    const checkOnly = await c.tokens.twoLegged({ scope: 'sim-swap:check' });
    expect((await c.call(CHECK, { phoneNumber: '+255712000001' }, { token: checkOnly })).status).toBe(200);
    expectErrorInfo(await c.call(RETRIEVE, { phoneNumber: '+255712000001' }, { token: checkOnly }), 403, 'PERMISSION_DENIED');
    expectErrorInfo(await c.call(TENURE, { phoneNumber: '+255712000001', tenureDate: '2020-01-01' }, { token: checkOnly }), 403, 'PERMISSION_DENIED');
    const tenureOnly = await c.tokens.twoLegged({ scope: 'kyc-tenure:check-tenure' });
    expectErrorInfo(await c.call(CHECK, { phoneNumber: '+255712000001' }, { token: tenureOnly }), 403, 'PERMISSION_DENIED');
    const retrieveOnly = await c.tokens.twoLegged({ scope: 'sim-swap:retrieve-date' });
    expect((await c.call(RETRIEVE, { phoneNumber: '+255712000001' }, { token: retrieveOnly })).status).toBe(200);
  });

  it('when the upstream is down with nothing cached, then 503 UNAVAILABLE', async () => {
    c.h.sim.setFault('sim', { down: true });
    try {
      expectErrorInfo(await c.call(CHECK, { phoneNumber: '+255712000005' }), 503, 'UNAVAILABLE');
    } finally {
      c.h.sim.resetFaults();
    }
    c.h.sim.setFault('hlr', { down: true });
    try {
      expectErrorInfo(await c.call(TENURE, { phoneNumber: '+255712000003', tenureDate: '2020-01-01' }), 503, 'UNAVAILABLE');
    } finally {
      c.h.sim.resetFaults();
    }
  });

  it('when a number was asked through either API, then it is not fetched again: one cache entry is shared with the legacy API', async () => {
    c.h.sim.resetCalls();
    const legacy = await c.h.post('sim_swap', { txn_id: txnId(), msisdn: '0712000002' }, { query: signedQuery(DEMO) });
    expect(legacy.status).toBe(200);
    const kyc = await c.h.post('kyc', { txn_id: txnId(), msisdn: '0712000002' }, { query: signedQuery(DEMO) });
    expect(kyc.status).toBe(200);
    expect(c.h.sim.calls()).toEqual({ hlr: 1, sim: 1, crm: 0 });
    expect((await c.call(CHECK, { phoneNumber: '+255712000002' })).status).toBe(200);
    expect((await c.call(RETRIEVE, { phoneNumber: '+255712000002' })).status).toBe(200);
    expect((await c.call(TENURE, { phoneNumber: '+255712000002', tenureDate: '2020-01-01' })).status).toBe(200);
    expect(c.h.sim.calls()).toEqual({ hlr: 1, sim: 1, crm: 0 });
  });

  it('when the legacy API answers, then the new facts change nothing there: business is not prepaid, a new line is not a swap', async () => {
    const kyc = await c.h.post('kyc', { txn_id: txnId(), msisdn: '255712000009' }, { query: signedQuery(DEMO) });
    expect((kyc.body as { result: object }).result).toEqual({ msisdn: '255712000009', is_prepaid: 'false', is_active: 'true', is_valid: 'true' });
    const swap = await c.h.post('sim_swap', { txn_id: txnId(), msisdn: '255712000010' }, { query: signedQuery(DEMO) });
    expect((swap.body as { result: object }).result).toEqual({ msisdn: '255712000010', sim_swapped: 'false' });
    // The CAMARA check counts that new line's SIM activation as a swap (sim-swap.yaml).
    expect((await c.call(CHECK, { phoneNumber: '+255712000010' })).body).toEqual({ swapped: true });
  });

  it('when CAMARA requests are served, then they are counted under interface="camara" with the partner operation they belong to', async () => {
    await c.call(CHECK, { phoneNumber: '+255712000001' });
    await c.call(TENURE, { phoneNumber: '+255712000001', tenureDate: '2020-01-01' });
    await c.call(TENURE, { phoneNumber: '+255712999999', tenureDate: '2020-01-01' });
    const text = await (await fetch(`${c.url}/metrics`)).text();
    const count = (labels: string) => Number(new RegExp(`^verify_requests_total\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    expect(count('operation="sim_swap",interface="camara",code="00000",status="200"')).toBeGreaterThanOrEqual(1);
    expect(count('operation="kyc",interface="camara",code="00000",status="200"')).toBeGreaterThanOrEqual(1);
    expect(count('operation="kyc",interface="camara",code="11111",status="404"')).toBe(1);
  });
});

describe('CAMARA routes: partners and rate limits', () => {
  let c: CamaraHarness;
  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'vc-camara-')), 'partners.json');
    writeFileSync(file, JSON.stringify({ partners: [
      { name: 'demo-bank', apiKey: 'demo-key', secret: 'demo-secret', operations: ['kyc', 'sim_swap'], rateLimit: { perSecond: 0.5, burst: 2 } },
      { name: 'kyc-only', apiKey: 'kyc-key', secret: 'kyc-secret', operations: ['kyc'] },
    ] }));
    c = await startCamaraHarness({ env: { PARTNERS_FILE: file } });
  });
  afterAll(() => c?.close());

  it('when a partner is over its rate limit, then 429 TOO_MANY_REQUESTS with Retry-After', async () => {
    const statuses: number[] = [];
    let last: Reply | undefined;
    for (let i = 0; i < 4; i++) {
      last = await c.call(CHECK, { phoneNumber: '+255712000001' });
      statuses.push(last.status);
    }
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(2);
    expectErrorInfo(last!, 429, 'TOO_MANY_REQUESTS');
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it("when a partner's registry entry lacks the operation, then 403 PERMISSION_DENIED even with the scope in its token", async () => {
    const token = await c.tokens.external({ clientId: 'kyc-key', scope: 'sim-swap' });
    expectErrorInfo(await c.call(CHECK, { phoneNumber: '+255712000001' }, { token }), 403, 'PERMISSION_DENIED');
  });
});

describe('the CAMARA response checker', () => {
  const h = (o: Record<string, string> = {}) => {
    const all: Record<string, string> = { 'content-type': 'application/json', 'x-correlator': 'c-1', ...o };
    return { get: (n: string) => all[n.toLowerCase()] ?? null };
  };
  it('when the official shapes are checked, then they are accepted', () => {
    expect(camaraResponseErrors('post', CHECK, 200, h(), { swapped: true })).toEqual([]);
    expect(camaraResponseErrors('post', RETRIEVE, 200, h(), { latestSimChange: null, monitoredPeriod: 30 })).toEqual([]);
    expect(camaraResponseErrors('post', TENURE, 200, h(), { tenureDateCheck: false })).toEqual([]);
    expect(camaraResponseErrors('post', TENURE, 429, h(), { status: 429, code: 'TOO_MANY_REQUESTS', message: 'slow down' })).toEqual([]);
  });

  it.each<[string, string, number, unknown, ReturnType<typeof h> | null]>([
    ['a string boolean', CHECK, 200, { swapped: 'true' }, null],
    ['a missing swapped', CHECK, 200, {}, null],
    ['a date-time without an offset', RETRIEVE, 200, { latestSimChange: '2026-11-20T11:15:00' }, null],
    ['an unknown contract type', TENURE, 200, { tenureDateCheck: true, contractType: 'PREPAID' }, null],
    ['a code the status does not have', CHECK, 400, { status: 400, code: 'UNAUTHENTICATED', message: 'x' }, null],
    ['IDENTIFIER_NOT_FOUND with status 400 in the body', TENURE, 404, { status: 400, code: 'IDENTIFIER_NOT_FOUND', message: 'x' }, null],
    ['a legacy body', CHECK, 400, { code: '11111', desc: 'Error Process' }, null],
    ['an undocumented status', CHECK, 409, { status: 409, code: 'CONFLICT', message: 'x' }, null],
    ['a 503 with a 4xx code', CHECK, 503, { status: 503, code: 'INVALID_ARGUMENT', message: 'x' }, null],
    ['an invalid x-correlator', CHECK, 200, { swapped: true }, h({ 'x-correlator': 'a b' })],
    ['a text/html content type', CHECK, 200, { swapped: true }, h({ 'content-type': 'text/html' })],
  ])('rejects %s', (_name, path, status, body, headers) => {
    expect(camaraResponseErrors('post', path, status, headers ?? h(), body).length).toBeGreaterThan(0);
  });
});

describe('CAMARA routes: hostile and faulty tokens', () => {
  let c: CamaraHarness;
  const JWKS_TIMEOUT_MS = 400;
  beforeAll(async () => {
    c = await startCamaraHarness({ env: { OAUTH_JWKS_TIMEOUT_MS: String(JWKS_TIMEOUT_MS), OAUTH_JWKS_COOLDOWN_S: '0', OAUTH_VERIFIED_CACHE_MAX: '0' } });
  });
  afterAll(() => c?.close());

  const body = { phoneNumber: '+255712000001' };
  const claims = { client_id: 'demo-key', scope: 'sim-swap' };

  it.each<[string, () => Promise<string>]>([
    ['alg none', () => c.tokens.issuer.mint(claims, { alg: 'none' })],
    ['HS256 keyed with the public key where an EC key is expected', () => c.tokens.issuer.mint(claims, { alg: 'HS256' })],
    ['a wrong iss', () => c.tokens.issuer.mint({ ...claims, iss: 'https://evil.example' })],
    ['a wrong aud', () => c.tokens.issuer.mint({ ...claims, aud: 'someone-else' })],
    ['an expired token', () => c.tokens.expired()],
    ['a token not yet valid', () => c.tokens.issuer.mint({ ...claims, nbf: Math.floor(Date.now() / 1000) + 3600 })],
    ['no client_id', () => c.tokens.issuer.mint({ scope: 'sim-swap', client_id: undefined })],
    ['an unknown client_id', () => c.tokens.issuer.mint({ ...claims, client_id: 'nobody' })],
  ])('%s gets 401 UNAUTHENTICATED as ErrorInfo', async (_name, token) => {
    expectErrorInfo(await c.call(CHECK, body, { token: await token() }), 401, 'UNAUTHENTICATED');
  });

  it('when the kid is unknown, then the JWKS is refetched once, then 401; a rotated-in key is accepted after that refetch', async () => {
    const before = c.tokens.issuer.fetches();
    const stranger = await generateSigningJwk('ES256');
    expectErrorInfo(await c.call(CHECK, body, { token: await c.tokens.issuer.mint(claims, { key: stranger }) }), 401, 'UNAUTHENTICATED');
    expect(c.tokens.issuer.fetches() - before).toBeLessThanOrEqual(1);
    await c.tokens.issuer.rotate();
    expect((await c.call(CHECK, body, { token: await c.tokens.issuer.mint(claims) })).status).toBe(200);
  });

  it('when the JWKS endpoint is down or slow, then known keys still work and an unknown kid is 401 within the JWKS timeout', async () => {
    const known = await c.tokens.issuer.mint(claims);
    expect((await c.call(CHECK, body, { token: known })).status).toBe(200);
    const stranger = await generateSigningJwk('ES256');
    for (const fault of [{ down: true }, { delayMs: 5000 }]) {
      c.tokens.issuer.setFault(fault);
      try {
        expect((await c.call(CHECK, body, { token: await c.tokens.issuer.mint(claims) })).status).toBe(200);
        const started = Date.now();
        const r = await c.call(CHECK, body, { token: await c.tokens.issuer.mint(claims, { key: stranger }) });
        expect(r.status).toBeLessThan(500);
        expectErrorInfo(r, 401, 'UNAUTHENTICATED');
        expect(Date.now() - started).toBeLessThan(JWKS_TIMEOUT_MS + 1500);
      } finally {
        c.tokens.issuer.setFault({});
      }
    }
  });
});

describe('CAMARA routes: the request log', () => {
  it('when a request is served, then one line has interface camara, partner, masked msisdn and correlator, never the token or the full number', async () => {
    const logs = captureLogs('info');
    const c = await startCamaraHarness({ logger: logs.logger });
    try {
      await c.call(CHECK, { phoneNumber: '+255712000006' }, { headers: { 'x-correlator': 'log-check-1' } });
      await c.call(TENURE, { phoneNumber: '+255712999999', tenureDate: '2020-01-01' }, { headers: { 'x-correlator': 'log-check-2' } });
      const line = logs.lines().find((l) => l.correlator === 'log-check-1');
      expect(line).toMatchObject({ interface: 'camara', partner: 'demo-bank', operation: 'sim_swap', msisdn: '2557*****006', code: '00000', status: 200 });
      expect(logs.lines().find((l) => l.correlator === 'log-check-2')).toMatchObject({ interface: 'camara', operation: 'kyc', code: '11111', status: 404 });
      const all = logs.raw().join('\n');
      expect(all).not.toContain(c.token);
      expect(all).not.toContain('255712000006');
      expect(all).not.toContain('255712999999');
    } finally {
      await c.close();
    }
  });
});
