import { Harness, startHarness, txnId } from '../support/harness';
import { DEMO } from '../support/signing';

/** /metrics as "name{labels}" → value; label order as the service writes it. */
async function scrape(h: Harness): Promise<{ text: string; get(series: string): number }> {
  const res = await fetch(`${h.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^(\S+?(?:\{.*\})?) (\S+)$/.exec(line);
    if (m && !line.startsWith('#')) values.set(m[1], Number(m[2]));
  }
  return { text, get: (series) => values.get(series) ?? 0 };
}

const req = (op: string, code: string, status: number) => `verify_requests_total{operation="${op}",interface="rest",code="${code}",status="${status}"}`;

describe('/metrics under real traffic', () => {
  let h: Harness;

  beforeEach(async () => {
    h = await startHarness({
      env: { HLR_TIMEOUT_MS: '200', BREAKER_VOLUME_THRESHOLD: '3', BREAKER_ERROR_THRESHOLD_PERCENT: '50', BREAKER_RESET_TIMEOUT_MS: '60000' },
    });
  });
  afterEach(() => h.close());

  it('when a KYC request is served, then it adds a success, a duration, a cache miss and an HLR call; when repeated, then a cache hit', async () => {
    const before = await scrape(h);
    expect((await h.post('kyc', { txn_id: txnId('m'), msisdn: '255712000002' })).status).toBe(200);
    const after = await scrape(h);
    expect(after.get(req('kyc', '00000', 200)) - before.get(req('kyc', '00000', 200))).toBe(1);
    const count = 'verify_request_duration_seconds_count{operation="kyc",interface="rest"}';
    expect(after.get(count) - before.get(count)).toBe(1);
    const miss = 'verify_cache_lookups_total{operation="kyc",outcome="miss"}';
    expect(after.get(miss) - before.get(miss)).toBe(1);
    const ok = 'verify_upstream_calls_total{upstream="hlr",outcome="ok"}';
    expect(after.get(ok) - before.get(ok)).toBe(1);
    expect(after.get('verify_txn_total{outcome="new"}') - before.get('verify_txn_total{outcome="new"}')).toBe(1);

    expect((await h.post('kyc', { txn_id: txnId('m'), msisdn: '0712000002' })).status).toBe(200);
    const again = await scrape(h);
    const hit = 'verify_cache_lookups_total{operation="kyc",outcome="hit"}';
    expect(again.get(hit) - after.get(hit)).toBe(1);
    expect(again.get(ok)).toBe(after.get(ok));
  });

  it('when a signature is bad, then an authentication failure by reason and a 401 are added, with no key, number or txn_id on /metrics', async () => {
    const before = await scrape(h);
    const ts = String(Math.floor(Date.now() / 1000));
    const txn = txnId('leak');
    const r = await h.post('kyc', { txn_id: txn, msisdn: '255712000003' }, { query: `api_key=${DEMO.apiKey}&timestamp=${ts}&sig=${'0'.repeat(32)}` });
    expect(r.status).toBe(401);
    const after = await scrape(h);
    const bad = 'verify_auth_failures_total{interface="rest",reason="bad_signature"}';
    expect(after.get(bad) - before.get(bad)).toBe(1);
    expect(after.get(req('kyc', '11111', 401)) - before.get(req('kyc', '11111', 401))).toBe(1);
    for (const leak of [DEMO.apiKey, DEMO.secret, '255712000003', txn]) expect(after.text).not.toContain(leak);
  });

  it('when the HLR is out, then upstream errors, 9999s, an open breaker and its transition show, then refused calls', async () => {
    const before = await scrape(h);
    expect(before.get('verify_circuit_breaker_state{upstream="hlr",state="closed"}')).toBe(1);
    expect(before.get('verify_circuit_breaker_transitions_total{upstream="hlr",state="open"}')).toBe(0);

    h.sim.setFault('hlr', { down: true });
    for (const msisdn of ['255712000004', '255712000005', '255712000006']) {
      expect((await h.post('kyc', { txn_id: txnId('o'), msisdn })).status).toBe(503);
    }
    const opened = await scrape(h);
    expect(opened.get('verify_circuit_breaker_state{upstream="hlr",state="open"}')).toBe(1);
    expect(opened.get('verify_circuit_breaker_state{upstream="hlr",state="closed"}')).toBe(0);
    expect(opened.get('verify_circuit_breaker_transitions_total{upstream="hlr",state="open"}')).toBe(1);
    expect(opened.get('verify_circuit_breaker_state{upstream="sim",state="closed"}')).toBe(1);
    const errors = 'verify_upstream_calls_total{upstream="hlr",outcome="error"}';
    expect(opened.get(errors) - before.get(errors)).toBe(3);
    expect(opened.get(req('kyc', '9999', 503)) - before.get(req('kyc', '9999', 503))).toBe(3);

    // Open: the next call is refused without reaching the HLR, and readiness stays 200.
    expect((await h.post('kyc', { txn_id: txnId('o'), msisdn: '255712000007' })).status).toBe(503);
    const refused = await scrape(h);
    const rejected = 'verify_upstream_calls_total{upstream="hlr",outcome="rejected"}';
    expect(refused.get(rejected) - opened.get(rejected)).toBe(1);
    expect(refused.get(errors)).toBe(opened.get(errors));
    const ready = await fetch(`${h.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ upstreams: { hlr: 'open', sim: 'closed' } });
  });

  it('when /healthz and /readyz are asked, then they answer uncached, and /readyz names where state lives', async () => {
    const health = await fetch(`${h.url}/healthz`);
    expect(health.status).toBe(200);
    expect(health.headers.get('cache-control')).toBe('no-store');
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${h.url}/readyz`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { status: string; store: string };
    expect(body.status).toBe(body.store === 'degraded' ? 'degraded' : 'ready');
    expect(['memory', 'redis']).toContain(body.store);
    const metrics = await scrape(h);
    expect(metrics.get(`verify_state_store_mode{mode="${body.store}"}`)).toBe(1);
    // Probes and scrapes are not partner requests: they never reach the request counter.
    expect(metrics.text).not.toMatch(/verify_requests_total\{operation="none",interface="rest"/);
  });
});
