import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Harness, startHarness, txnId } from '../support/harness';
import { stringMatching } from '../support/matchers';

/**
 * What stands between the service and the HLR: either a relay to a path of the real simulator
 * (the right one, or a typo), or a canned answer, as an ingress default backend would give.
 */
type Front = { relayTo: string } | { status: number; contentType?: string; body: string };

async function startFront(): Promise<{ url: string; set(f: Front): void; close(): Promise<void> }> {
  let front: Front = { status: 404, body: '' };
  const server: Server = createServer((req, res) => {
    const f = front;
    if ('relayTo' in f) {
      fetch(`${f.relayTo}${req.url ?? '/'}`).then(async (r) => {
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/octet-stream' });
        res.end(await r.text());
      }).catch(() => res.destroy());
      return;
    }
    res.writeHead(f.status, f.contentType ? { 'content-type': f.contentType } : {});
    res.end(f.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set: (f) => { front = f; },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

const ACTIVE_PREPAID = { msisdn: '255712000001', is_prepaid: 'true', is_active: 'true', is_valid: 'true' };

describe('REST when the HLR answers 404 that is not the upstream contract\'s "not a subscriber"', () => {
  let h: Harness;
  let front: Awaited<ReturnType<typeof startFront>>;

  beforeEach(async () => {
    front = await startFront();
    // The default cache TTL (300 s): a wrongly cached all-false answer would still be served after the fix.
    h = await startHarness({ env: { HLR_URL: front.url, BREAKER_VOLUME_THRESHOLD: '4', BREAKER_ERROR_THRESHOLD_PERCENT: '50' } });
  });
  afterEach(async () => {
    await h.close();
    await front.close();
  });

  const kyc = (msisdn: string) => h.post('kyc', { txn_id: txnId(), msisdn });
  const hlrOk = () => front.set({ relayTo: `${h.simUrl}/hlr` });

  it.each<[string, () => Front]>([
    ['a wrong path of the simulator (its JSON 404 for an unknown route)', () => ({ relayTo: `${h.simUrl}/hrl` })],
    ['an ingress default backend (404 text/html)', () => ({ status: 404, contentType: 'text/html', body: '<html><body><h1>404 Not Found</h1></body></html>' })],
    ['an empty 404', () => ({ status: 404, body: '' })],
    ['a JSON 404 of another shape', () => ({ status: 404, contentType: 'application/json', body: '{"error":"not found"}' })],
    ['a JSON 404 naming another number', () => ({ status: 404, contentType: 'application/json', body: '{"error":"not_found","msisdn":"255712000002"}' })],
  ])('when HLR_URL reaches %s, then KYC answers 503 9999, nothing is cached, and the real answer comes at once after the fix', async (_, wrong) => {
    front.set(wrong());
    const r = await kyc('255712000001');
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ code: '9999', desc: stringMatching(/^Unexpected system Error: hlr (answered HTTP 404 without the contract's not-a-subscriber body)$/) });

    hlrOk();
    const fixed = await kyc('255712000001');
    expect(fixed.status).toBe(200);
    expect(fixed.body).toEqual({ code: '00000', desc: 'Success', result: ACTIVE_PREPAID });
  });

  it('when the HLR answers the contract\'s 404 for the number asked, then KYC answers all-false as a success', async () => {
    hlrOk();
    const r = await kyc('255799999998');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ code: '00000', desc: 'Success', result: { msisdn: '255799999998', is_prepaid: 'false', is_active: 'false', is_valid: 'false' } });
  });

  it('when 404s that are not the contract\'s keep coming, then they count against the breaker, which opens', async () => {
    front.set({ status: 404, contentType: 'text/html', body: '<html>default backend - 404</html>' });
    for (let i = 0; i < 4; i++) expect((await kyc(`25571200000${i + 1}`)).status).toBe(503);
    const ready = (await (await fetch(`${h.url}/readyz`)).json()) as { upstreams: Record<string, string> };
    expect(ready.upstreams.hlr).toBe('open');
    const shortCircuited = await kyc('255712000001');
    expect(shortCircuited.status).toBe(503);
    expect(shortCircuited.body.desc).toMatch(/circuit open/);
  });
});
