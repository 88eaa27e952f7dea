import { FakeDns, startFakeDns } from '../support/fake-dns';
import { DEMO_KYC_ONLY, signedQuery, txnId } from '../support/signing';
import { SinkServer, startSink } from '../support/sink-server';
import { SUBS, SWAPPED, SubsHarness, startSubsHarness, subscriptionBody } from '../support/subscriptions-harness';

/*
 * Sink hosts are resolved with c-ares against SINK_DNS_SERVERS, within SINK_DNS_TIMEOUT_MS, at
 * creation and at delivery: never with getaddrinfo on libuv's thread pool, which the upstream
 * clients' own lookups need (here the upstreams are reached by the name `localhost`, so each
 * KYC call does such a lookup).
 */

const PHONE = '+255712000001';
const DNS_TIMEOUT_MS = 1000;

function expectErrorInfo(r: { status: number; body: unknown }, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(r.body).toMatchObject({ status, code });
}

describe('a partner whose sink host\'s DNS never answers', () => {
  let dns: FakeDns;
  let h: SubsHarness;

  beforeAll(async () => {
    dns = await startFakeDns({ silent: true });
    h = await startSubsHarness({ SINK_ALLOW_PRIVATE: 'false', SINK_DNS_SERVERS: dns.server, SINK_DNS_TIMEOUT_MS: String(DNS_TIMEOUT_MS) });
  });
  afterAll(async () => {
    await h.close();
    await dns.close();
  });

  test('when subscriptions to names under it are created during 40 KYC calls of another partner, then creation is 400 INVALID_SINK within the deadline and every KYC call succeeds', async () => {
    const upstreams = h.h.simUrl.replace('127.0.0.1', 'localhost');
    const kycHarness = await startSubsHarness({ SINK_ALLOW_PRIVATE: 'false', SINK_DNS_SERVERS: dns.server, SINK_DNS_TIMEOUT_MS: String(DNS_TIMEOUT_MS), HLR_URL: `${upstreams}/hlr`, SIM_URL: `${upstreams}/sim` }, h.h.sim);
    try {
      const create = async (name: string) => {
        const started = Date.now();
        const r = await kycHarness.subscribe(subscriptionBody(`https://${name}.hang.example/hook`, PHONE));
        return { r, ms: Date.now() - started };
      };
      const kyc = Array.from({ length: 40 }, () => kycHarness.h.post('kyc', { txn_id: txnId(), msisdn: '0712000078' }, { query: signedQuery(DEMO_KYC_ONLY) }));
      const [a, b, ...replies] = await Promise.all([create('a'), create('b'), ...kyc]);
      for (const c of [a, b]) {
        expectErrorInfo(c.r, 400, 'INVALID_SINK');
        expect(c.ms).toBeLessThan(DNS_TIMEOUT_MS + 1500);
      }
      expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
      // The sink's name was asked of SINK_DNS_SERVERS (c-ares), not of the system resolver.
      expect(dns.queries).toEqual(expect.arrayContaining(['a.hang.example', 'b.hang.example']));
      expect((await kycHarness.call(SUBS, undefined, { method: 'GET', token: kycHarness.subsToken })).body).toEqual([]);
    } finally {
      await kycHarness.close();
    }
  });
});

describe('sink names resolved by SINK_DNS_SERVERS', () => {
  let dns: FakeDns;
  let strict: SubsHarness;
  let open: SubsHarness;
  let sink: SinkServer;

  beforeAll(async () => {
    dns = await startFakeDns({ a: { 'partner-sink.test': '93.184.216.34', 'private-sink.test': '10.0.0.5', 'loopback-sink.test': '127.0.0.1' } });
    sink = await startSink();
    strict = await startSubsHarness({ SINK_ALLOW_PRIVATE: 'false', SINK_DNS_SERVERS: dns.server });
    open = await startSubsHarness({ SINK_DNS_SERVERS: dns.server });
  });
  afterAll(async () => {
    await strict.close();
    await open.close();
    await sink.close();
    await dns.close();
  });

  test('when a name resolves to a public address there, then the subscription is created; to a private one, or to nothing, then 400 INVALID_SINK', async () => {
    const ok = await strict.subscribe(subscriptionBody('https://partner-sink.test/hook', PHONE));
    expect(ok.status).toBe(201);
    expectErrorInfo(await strict.subscribe(subscriptionBody('https://private-sink.test/hook', PHONE)), 400, 'INVALID_SINK');
    expectErrorInfo(await strict.subscribe(subscriptionBody('https://unknown-sink.test/hook', PHONE)), 400, 'INVALID_SINK');
    // localhost is loopback without asking DNS.
    expectErrorInfo(await strict.subscribe(subscriptionBody('https://localhost/hook', PHONE)), 400, 'INVALID_SINK');
    expect(dns.queries).not.toContain('localhost');
    // Not deleted: its subscription-ended event would be sent to that public address.
  });

  test('when an event is delivered to a sink named there, then the delivery resolves it with the same servers', async () => {
    const port = new URL(sink.url).port;
    const s = await open.subscribe(subscriptionBody(`http://loopback-sink.test:${port}/named`, PHONE));
    expect(s.status).toBe(201);
    expect(await open.swap('255712000001')).toBe(200);
    const [got] = await sink.waitFor((d) => d.some((r) => r.path === '/named'));
    expect(got.body.type).toBe(SWAPPED);
    expect(dns.queries).toContain('loopback-sink.test');
  });
});
