import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStateStore } from '../../src/verification/state/memory-state-store';
import { TestClock } from '../contract/state-store.contract';
import { ConfigError, loadConfig } from '../../src/config/config';
import { systemClock } from '../../src/kernel/clock';
import { Harness, Reply, postJson, startHarness, txnId } from '../support/harness';
import { captureLogs } from '../support/log-capture';
import { OutcomeTally } from '../support/outcome-tally';
import { DEMO, DEMO_DISABLED, DEMO_HMAC, DEMO_KYC_ONLY, md5Sig, signedQuery } from '../support/signing';

/*
 * Security: security headers and no x-powered-by on every kind of answer,
 * failed signatures throttled per (api key, client address) and per client address, and no secret, signature
 * or full msisdn in any log line, whatever happens.
 */

const tally = new OutcomeTally('security');
const valid = (msisdn = '255712000001') => ({ txn_id: txnId(), msisdn });
const wrongSig = (apiKey: string) => signedQuery({ apiKey, secret: 'not-the-secret' });

function partnersFile(partners: object[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'vc-security-')), 'partners.json');
  writeFileSync(file, JSON.stringify({ partners }));
  return file;
}

const DEMO_PARTNERS = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'demo-partners.json'), 'utf8')) as { partners: object[] }).partners;

interface Failure {
  code: string;
  desc: string;
}
/** The code and desc of an answer in either shape (KYC flat, SIM swap under `response`). */
const failureOf = (r: Reply): Failure => {
  const body = r.body as Failure & { response?: Failure };
  return body.response ?? body;
};

describe('security headers', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(() => h.close());

  // What protects a JSON API (docs/decisions.md, "Security headers"); helmet's browser-document
  // headers are not sent.
  const HEADERS = {
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
    'strict-transport-security': /max-age=\d+/,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
  const NOT_SENT = ['x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'origin-agent-cluster', 'x-xss-protection', 'cross-origin-opener-policy'];

  it.each<[string, () => Promise<{ status: number; headers: Headers }>]>([
    ['a KYC success', () => h.post('kyc', valid())],
    ['a SIM swap 404', () => h.post('sim_swap', valid('255799999999'))],
    ['a 401', () => h.post('kyc', valid(), { query: wrongSig('demo-key') })],
    ['a 400', () => h.post('sim_swap', '{')],
    ['a 405', () => fetch(`${h.url}/eai/verify_customer/query/kyc`)],
    ['an unknown route', () => fetch(`${h.url}/nowhere`)],
    ['the OpenAPI document', () => fetch(`${h.url}/openapi.yaml`)],
    ['a probe', () => fetch(`${h.url}/healthz`)],
    ['a GraphQL answer', () => fetch(`${h.url}/graphql?${signedQuery(DEMO)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' })],
  ])('%s carries the security headers and no x-powered-by', async (what, request) => {
    const r = await request();
    const headers = what === 'the OpenAPI document' ? { ...HEADERS, 'cache-control': 'public, max-age=300' } : HEADERS;
    for (const name of NOT_SENT) expect([name, r.headers.get(name)]).toEqual([name, null]);
    for (const [name, expected] of Object.entries(headers)) {
      const value = r.headers.get(name);
      if (expected instanceof RegExp) expect([name, value]).toEqual([name, expect.stringMatching(expected)]);
      else expect([name, value]).toEqual([name, expected]);
    }
    expect(r.headers.get('x-powered-by')).toBeNull();
    expect(r.headers.get('server')).toBeNull();
    expect(r.headers.get('etag')).toBeNull();
  });
});

describe('server timeouts are configuration', () => {
  it('when REQUEST_TIMEOUT_MS and HEADERS_TIMEOUT_MS are set or not, then they are taken, defaulting to 30 s and 10 s, and headers longer than the request are refused', () => {
    expect(loadConfig({})).toMatchObject({ REQUEST_TIMEOUT_MS: 30_000, HEADERS_TIMEOUT_MS: 10_000 });
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '2000' })).toThrow(/HEADERS_TIMEOUT_MS: must be at most REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: 'soon' })).toThrow(ConfigError);
    expect(loadConfig({})).toMatchObject({ AUTH_FAIL_LIMIT: 20, AUTH_FAIL_ADDRESS_LIMIT: 100, AUTH_FAIL_WINDOW_S: 60, TRUST_PROXY_HOPS: 0 });
    expect(() => loadConfig({ AUTH_FAIL_LIMIT: '0' })).toThrow(/AUTH_FAIL_LIMIT/);
  });
});

describe('failed signatures are throttled per (api key, client address) and per client address', () => {
  const THROTTLE = { AUTH_FAIL_LIMIT: '5', AUTH_FAIL_ADDRESS_LIMIT: '12', AUTH_FAIL_WINDOW_S: '60' };

  function expect429(op: 'kyc' | 'sim_swap', r: Reply): void {
    expect(r.status).toBe(429);
    const inner = op === 'kyc' ? r.body as Failure : (r.body as { response: Failure }).response;
    expect(inner).toEqual({ code: '11111', desc: 'Error Process: too many failed authentication attempts' });
    const retryAfter = Number(r.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    tally.record('throttled attempts', `429 ${inner?.code}`);
  }

  /** Authentication failures on /metrics: those that looked at a signature, and those refused by the throttle. */
  async function authFailures(h: Harness): Promise<{ checked: number; throttled: number }> {
    const text = await (await fetch(`${h.url}/metrics`)).text();
    const counts = { checked: 0, throttled: 0 };
    for (const m of text.matchAll(/^verify_auth_failures_total\{[^}]*reason="([a-z_]+)"[^}]*\} (\d+)/gm)) {
      if (m[1] === 'throttled') counts.throttled += Number(m[2]);
      else counts.checked += Number(m[2]);
    }
    return counts;
  }

  it('when a key has AUTH_FAIL_LIMIT wrong signatures, then it gets 429 11111 from that address with Retry-After in both shapes, even with a valid signature, at no signature cost', async () => {
    const h = await startHarness({ env: THROTTLE });
    try {
      for (let i = 0; i < 5; i++) {
        const r = await h.post('kyc', valid(), { query: wrongSig('demo-key') });
        expect(r.status).toBe(401);
        tally.record('wrong signatures under the limit', `${r.status} ${failureOf(r).code}`);
      }
      const before = await authFailures(h);
      expect429('kyc', await h.post('kyc', valid()));
      expect429('sim_swap', await h.post('sim_swap', valid()));
      expect429('kyc', await h.post('kyc', valid(), { query: wrongSig('demo-key') }));
      // Refused before the signature is looked at: counted as throttled, never as a signature failure.
      expect(await authFailures(h)).toEqual({ checked: before.checked, throttled: before.throttled + 3 });
    } finally {
      await h.close();
    }
  });

  it('when the address is under its own limit, then another key from it is still served', async () => {
    const h = await startHarness({ env: THROTTLE });
    try {
      for (let i = 0; i < 5; i++) expect((await h.post('kyc', valid(), { query: wrongSig('demo-key') })).status).toBe(401);
      expect429('kyc', await h.post('kyc', valid()));
      for (const partner of [DEMO_KYC_ONLY, DEMO_HMAC]) {
        const r = await h.post('kyc', valid(), { query: signedQuery(partner, { hmac: partner === DEMO_HMAC }) });
        expect(r.status).toBe(200);
        tally.record('another key from the same address', `${r.status} ${failureOf(r).code}`);
      }
    } finally {
      await h.close();
    }
  });

  it('when an address is over AUTH_FAIL_ADDRESS_LIMIT, then every key from it is refused, valid or not', async () => {
    const h = await startHarness({ env: THROTTLE });
    try {
      // 12 failures spread over keys that each stay under the key limit.
      for (let i = 0; i < 12; i++) expect((await h.post('kyc', valid(), { query: wrongSig(`spray-key-${i % 4}`) })).status).toBe(401);
      expect429('kyc', await h.post('kyc', valid(), { query: signedQuery(DEMO_KYC_ONLY) }));
      expect429('sim_swap', await h.post('sim_swap', valid()));
    } finally {
      await h.close();
    }
  });

  it('when keys are unknown, disabled or real, then they are throttled alike, so a 429 tells nothing about a key', async () => {
    const h = await startHarness({ env: { ...THROTTLE, AUTH_FAIL_ADDRESS_LIMIT: '100' } });
    try {
      const texts: string[] = [];
      for (const apiKey of ['no-such-key', DEMO_DISABLED.apiKey, DEMO.apiKey]) {
        for (let i = 0; i < 5; i++) expect((await h.post('kyc', valid(), { query: wrongSig(apiKey) })).status).toBe(401);
        const r = await h.post('kyc', valid(), { query: wrongSig(apiKey) });
        expect429('kyc', r);
        texts.push(r.text);
      }
      expect(new Set(texts).size).toBe(1);
    } finally {
      await h.close();
    }
  });

  it('when requests succeed, then they never count, and when failures age out, then the key is served again (the window slides)', async () => {
    // The failure window slides on the service's clock: moved past Retry-After rather than slept through.
    const clock = new TestClock();
    const h = await startHarness({ env: { ...THROTTLE, AUTH_FAIL_WINDOW_S: '2' }, serverOptions: { clock } });
    try {
      for (let i = 0; i < 30; i++) expect((await h.post('kyc', valid())).status).toBe(200);
      for (let i = 0; i < 4; i++) expect((await h.post('kyc', valid(), { query: wrongSig('demo-key') })).status).toBe(401);
      expect((await h.post('kyc', valid())).status).toBe(200);
      expect((await h.post('kyc', valid(), { query: wrongSig('demo-key') })).status).toBe(401);
      const refused = await h.post('kyc', valid());
      expect429('kyc', refused);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(2);
      clock.freeze();
      clock.advance(Number(refused.headers.get('retry-after')) * 1000);
      const back = await h.post('kyc', valid());
      expect(back.status).toBe(200);
      tally.record('after Retry-After', `${back.status} ${failureOf(back).code}`);
    } finally {
      await h.close();
    }
  });

  it('when X-Forwarded-For is sent by default settings, then it is ignored, so a spoofed header does not escape the address limit', async () => {
    const h = await startHarness({ env: THROTTLE });
    try {
      for (let i = 0; i < 12; i++) {
        const r = await h.post('kyc', valid(), { query: wrongSig(`spray-key-${i % 4}`), headers: { 'x-forwarded-for': `203.0.113.${i}` } });
        expect(r.status).toBe(401);
      }
      expect429('kyc', await h.post('kyc', valid(), { headers: { 'x-forwarded-for': '198.51.100.7' } }));
    } finally {
      await h.close();
    }
  });

  it('when TRUST_PROXY_HOPS=1, then the address is the one the proxy saw, and addresses are throttled apart', async () => {
    const h = await startHarness({ env: { ...THROTTLE, TRUST_PROXY_HOPS: '1' } });
    try {
      for (let i = 0; i < 12; i++) {
        expect((await h.post('kyc', valid(), { query: wrongSig(`spray-key-${i % 4}`), headers: { 'x-forwarded-for': '203.0.113.1' } })).status).toBe(401);
      }
      expect429('kyc', await h.post('kyc', valid(), { headers: { 'x-forwarded-for': '203.0.113.1' } }));
      const other = await h.post('kyc', valid(), { headers: { 'x-forwarded-for': '203.0.113.2' } });
      expect(other.status).toBe(200);
      // One hop trusted: only the last entry counts, whatever the client prepends.
      expect429('kyc', await h.post('kyc', valid(), { headers: { 'x-forwarded-for': '10.9.9.9, 203.0.113.1' } }));
    } finally {
      await h.close();
    }
  });

  describe('behind one trusted proxy (TRUST_PROXY_HOPS=1, X-Forwarded-For)', () => {
    let h: Harness;
    beforeEach(async () => { h = await startHarness({ env: { ...THROTTLE, TRUST_PROXY_HOPS: '1' } }); });
    afterEach(() => h.close());
    const from = (address: string) => ({ 'x-forwarded-for': address });
    const graphqlFrom = (address: string) => fetch(`${h.url}/graphql?${signedQuery(DEMO)}`, {
      method: 'POST', headers: { 'content-type': 'application/json', ...from(address) }, body: '{"query":"{ kyc(msisdn: \\"255712000001\\") { isValid } }"}',
    });

    it("when someone who knows a partner's api key fails from another address, then the partner's signed requests are still served", async () => {
      // Twenty addresses, each one wrong signature for the partner's key: far over AUTH_FAIL_LIMIT in all.
      for (let i = 1; i <= 20; i++) {
        expect((await h.post('kyc', valid(), { query: wrongSig(DEMO.apiKey), headers: from(`203.0.113.${i}`) })).status).toBe(401);
      }
      const partner = await h.post('kyc', valid(), { headers: from('198.51.100.7') });
      expect(partner.status).toBe(200);
      expect((await h.post('sim_swap', valid(), { headers: from('198.51.100.7') })).status).toBe(200);
      expect((await graphqlFrom('198.51.100.7')).status).toBe(200);
      tally.record('partner\'s key sprayed from other addresses', `${partner.status} ${failureOf(partner).code}`);
    });

    it('when a key fails from one address, then it is throttled there only, even for its valid signatures', async () => {
      for (let i = 0; i < 5; i++) expect((await h.post('kyc', valid(), { query: wrongSig(DEMO.apiKey), headers: from('203.0.113.9') })).status).toBe(401);
      expect429('kyc', await h.post('kyc', valid(), { headers: from('203.0.113.9') }));
      expect((await graphqlFrom('203.0.113.9')).status).toBe(429);
      expect((await h.post('kyc', valid(), { headers: from('203.0.113.10') })).status).toBe(200);
      // The failing address may still use another key, until the address itself is over its limit.
      expect((await h.post('kyc', valid(), { query: signedQuery(DEMO_KYC_ONLY), headers: from('203.0.113.9') })).status).toBe(200);
    });

    it('when the address is IPv4-mapped in hex form (::ffff:cb00:7101), then it counts as the IPv4 address it carries', async () => {
      for (let i = 0; i < 12; i++) {
        expect((await h.post('kyc', valid(), { query: wrongSig(`spray-key-${i % 4}`), headers: from('::ffff:cb00:7101') })).status).toBe(401);
      }
      // 203.0.113.1 is ::ffff:cb00:7101: over the address limit in every spelling.
      expect429('kyc', await h.post('kyc', valid(), { headers: from('203.0.113.1') }));
      expect429('kyc', await h.post('kyc', valid(), { headers: from('::ffff:203.0.113.1') }));
      // Other mapped addresses are other addresses, not one shared bucket.
      for (const other of ['::ffff:cb00:7102', '::ffff:c633:6407', '203.0.113.2']) {
        expect((await h.post('kyc', valid(), { headers: from(other) })).status).toBe(200);
      }
    });

    it('when an IPv6 client rotates the host part, then it is counted by its /64 and does not escape the address limit', async () => {
      for (let i = 0; i < 12; i++) {
        expect((await h.post('kyc', valid(), { query: wrongSig(`spray-key-${i % 4}`), headers: from(`2001:db8:0:1::${(i + 1).toString(16)}`) })).status).toBe(401);
      }
      expect429('kyc', await h.post('kyc', valid(), { headers: from('2001:db8:0:1:ffff:ffff:ffff:ffff') }));
      expect((await h.post('kyc', valid(), { headers: from('2001:db8:0:2::1') })).status).toBe(200);
    });
  });

  it('when a key is blocked over REST from an address, then GraphQL refuses it there too with a 11111 and Retry-After', async () => {
    const h = await startHarness({ env: THROTTLE });
    try {
      for (let i = 0; i < 5; i++) expect((await h.post('kyc', valid(), { query: wrongSig('demo-key') })).status).toBe(401);
      const res = await fetch(`${h.url}/graphql?${signedQuery(DEMO)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const body = await res.json() as { errors: { extensions: { code: string } }[] };
      expect(body.errors[0].extensions.code).toBe('11111');
      tally.record('throttled attempts', '429 11111 (GraphQL)');
    } finally {
      await h.close();
    }
  });
});

describe('no secret, signature or full msisdn in any log line', () => {
  const ENV_SECRET = 'env-held-secret-6f1c0d2e9a';
  const RATE_SECRET = 'rate-limited-secret-0b7e4c';
  const EVENTS_TOKEN = 'events-token-a91f3c2b7d5e4f60';
  const SECRETS = ['demo-secret', 'demo-hmac-secret', 'demo-kyc-secret', 'demo-disabled-secret', ENV_SECRET, RATE_SECRET, EVENTS_TOKEN, 'not-the-secret'];
  const MSISDN_FORMS = ['255712000001', '0712000002', '+255712000006', '00255712000003', '712000005', '255799999999', '0799999998', '255712000008'];

  afterAll(() => { delete process.env.VC_TEST_PARTNER_SECRET; });

  it('when requests succeed, fail, bad signatures, throttling, GraphQL, events and partner reload errors are logged, then no line holds a secret, signature or full msisdn', async () => {
    process.env.VC_TEST_PARTNER_SECRET = ENV_SECRET;
    const file = partnersFile([
      ...DEMO_PARTNERS,
      { name: 'env-bank', apiKey: 'env-key', secretEnv: 'VC_TEST_PARTNER_SECRET', operations: ['kyc', 'sim_swap'] },
      { name: 'slow-bank', apiKey: 'slow-key', secret: RATE_SECRET, operations: ['kyc'], rateLimit: { perSecond: 0.1, burst: 1 } },
    ]);
    const logs = captureLogs('trace');
    const store = new MemoryStateStore({ clock: systemClock, maxCacheEntries: 1000, maxTxnEntries: 1000 });
    const h = await startHarness({
      env: { PARTNERS_FILE: file, EVENTS_TOKEN, AUTH_FAIL_LIMIT: '3', AUTH_FAIL_ADDRESS_LIMIT: '1000' },
      logger: logs.logger, serverOptions: { store },
    });
    const sigs: string[] = [];
    const q = (p: { apiKey: string; secret: string }, opts: { hmac?: boolean; omitTimestamp?: boolean } = {}) => {
      const query = signedQuery(p, opts);
      sigs.push(new URLSearchParams(query).get('sig')!);
      return query;
    };
    const statuses = new Set<number>();
    const post = async (op: 'kyc' | 'sim_swap', body: unknown, query: string) => {
      const r = await h.post(op, body, { query });
      statuses.add(r.status);
      return r;
    };
    try {
      // Successes, in every msisdn form, both operations, md5 with and without timestamp, hmac, secretEnv.
      for (const m of MSISDN_FORMS) {
        await post('kyc', { txn_id: txnId(), msisdn: m }, q(DEMO));
        await post('sim_swap', { txn_id: txnId(), msisdn: m }, q(DEMO, { omitTimestamp: true }));
      }
      await post('kyc', valid('0712000004'), q(DEMO_HMAC, { hmac: true }));
      await post('sim_swap', valid('0712000007'), q({ apiKey: 'env-key', secret: ENV_SECRET }));
      // A replay and a conflict.
      const id = txnId();
      await post('kyc', { txn_id: id, msisdn: '255712000001' }, q(DEMO));
      await post('kyc', { txn_id: id, msisdn: '255712000001' }, q(DEMO));
      await post('kyc', { txn_id: id, msisdn: '0712000002' }, q(DEMO));
      // Bad requests, permissions, rate limit.
      await post('kyc', '{"txn_id":', q(DEMO));
      await post('kyc', { txn_id: txnId(), msisdn: '25571200000x' }, q(DEMO));
      await post('sim_swap', valid('0712000001'), q(DEMO_KYC_ONLY));
      for (let i = 0; i < 3; i++) await post('kyc', valid('0712000001'), q({ apiKey: 'slow-key', secret: RATE_SECRET }));
      // Bad signatures, unknown and disabled keys, stale timestamps, then throttling.
      for (const p of [DEMO, DEMO_HMAC, { apiKey: 'env-key', secret: 'x' }, { apiKey: 'unknown-key', secret: 'x' }]) {
        for (let i = 0; i < 4; i++) await post('kyc', valid('0712000001'), q({ apiKey: p.apiKey, secret: 'not-the-secret' }));
      }
      await post('kyc', valid(), q(DEMO_DISABLED));
      await post('kyc', valid(), `api_key=demo-key&timestamp=${Math.floor(Date.now() / 1000) - 3600}&sig=${md5Sig('demo-key', 'demo-secret', String(Math.floor(Date.now() / 1000) - 3600))}`);
      // Upstream down (503) and an unexpected failure (500).
      h.sim.setFault('hlr', { down: true });
      h.sim.setFault('sim', { down: true });
      await post('kyc', valid('0799999997'), q(DEMO_KYC_ONLY));
      await post('sim_swap', valid('0799999996'), q({ apiKey: 'env-key', secret: ENV_SECRET }));
      h.sim.resetFaults();
      const claim = store.txns.claim.bind(store.txns);
      store.txns.claim = async () => { throw new TypeError('store exploded'); };
      await post('sim_swap', valid('255712000006'), q(DEMO_KYC_ONLY));
      await post('kyc', valid('255712000006'), q(DEMO_KYC_ONLY));
      store.txns.claim = claim;
      // GraphQL with header credentials, and the events route with and without its token.
      const ts = String(Math.floor(Date.now() / 1000));
      const gsig = md5Sig('demo-kyc-key', 'demo-kyc-secret', ts);
      sigs.push(gsig);
      await fetch(`${h.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'demo-kyc-key', 'x-timestamp': ts, 'x-signature': gsig },
        body: JSON.stringify({ query: '{ kyc(msisdn: "0712000003") { isValid } verifyCustomers(msisdns: ["255712000008", "nonsense"]) { msisdn error { code } } }' }) });
      for (const authorization of [`Bearer ${EVENTS_TOKEN}`, 'Bearer wrong-token-0123456789']) {
        await postJson(`${h.url}/internal/events/sim-swap`, { msisdn: '0712000006' }, { headers: { authorization } });
      }
      // Partner reloads that fail: truncated JSON, duplicate keys, unknown fields, a missing secret variable.
      const reloads = [
        `{"partners":[{"name":"x","apiKey":"demo-key","secret":"demo-secret","operations":["kyc"]`,
        JSON.stringify({ partners: [{ name: 'a', apiKey: 'dup-key', secret: 'demo-hmac-secret', operations: [] }, { name: 'b', apiKey: 'dup-key', secret: ENV_SECRET, operations: [] }] }),
        JSON.stringify({ partners: [{ name: 'a', apiKey: 'some-key', secret: 'demo-kyc-secret', operations: ['kyc'], secret2: RATE_SECRET }] }),
        JSON.stringify({ partners: [{ name: 'a', apiKey: 'some-key', secretEnv: 'VC_NOT_SET_ANYWHERE', operations: ['kyc'] }] }),
        JSON.stringify({ partners: [{ name: 'a', apiKey: 'some-key', secret: 12345, operations: ['kyc'] }] }),
      ];
      for (const content of reloads) {
        writeFileSync(file, content);
        h.server.reloadPartners();
      }
    } finally {
      await h.close();
    }

    const raw = logs.raw().join('');
    const lines = logs.lines();
    // The test sees what it claims to: request lines of successes and of each kind of failure, reload errors, masked numbers.
    expect([...statuses].sort()).toEqual([200, 400, 401, 403, 404, 409, 429, 500, 503]);
    expect(lines.filter((l) => l.msg === 'request').length).toBeGreaterThanOrEqual(50);
    expect(lines.filter((l) => l.msg === 'partners reload failed; keeping the registry in force').length).toBe(5);
    expect(lines.some((l) => l.msg === 'unexpected error')).toBe(true);
    expect(raw).toContain('2557*****001');

    for (const secret of SECRETS) expect([secret, raw.includes(secret)]).toEqual([secret, false]);
    for (const sig of sigs) expect([sig, raw.toLowerCase().includes(sig.toLowerCase())]).toEqual([sig, false]);
    for (const m of MSISDN_FORMS) {
      const nsn = m.slice(-9);
      expect([m, raw.includes(m), raw.includes(nsn)]).toEqual([m, false, false]);
    }
    expect(raw).not.toMatch(/api_key=|sig=|x-signature/i);
    tally.record('log lines captured at trace', 'no secret, signature or full msisdn', lines.length);
  });
});

afterAll(() => tally.writeIfRequested());
