import http from 'node:http';
import { AddressInfo } from 'node:net';
import { HttpUpstream } from '../../src/verification/upstream/http-upstream';
import { Metrics } from '../../src/verification/ports/metrics';

/** Every metric is a no-op: this test is about the request on the wire. */
const metrics = new Proxy({}, { get: () => () => undefined }) as Metrics;

/*
 * HttpUpstream trims axios's instance defaults (the per-method header sections, the XSRF cookie
 * settings) so each call merges less: the request an upstream receives must be the one it
 * received before, on both transports.
 */
describe.each(['undici', 'node-http'] as const)('what an upstream receives (transport %s)', (transport) => {
  let server: http.Server;
  const seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders }[] = [];
  let hlr: HttpUpstream<unknown>;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ method: req.method, url: req.url, headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"active"}');
    }).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    hlr = new HttpUpstream<unknown>({
      name: 'hlr', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hlr`, timeoutMs: 2000, maxSockets: 2, metrics,
      parse: (body) => body, transport,
      breaker: { errorThresholdPercentage: 50, volumeThreshold: 100, windowMs: 10_000, resetTimeoutMs: 5000 },
    });
  });
  afterAll(async () => {
    hlr.shutdown();
    await new Promise((r) => server.close(r));
  });

  it('when a lookup is made twice, then each is a GET of the path under the base URL with the JSON accept header and no body headers', async () => {
    for (let i = 0; i < 2; i++) expect(await hlr.get('/subscribers/255712000001', '255712000001')).toEqual({ status: 'active' });
    expect(seen).toHaveLength(2);
    for (const r of seen) {
      expect([r.method, r.url, r.headers.accept]).toEqual(['GET', '/hlr/subscribers/255712000001', 'application/json']);
      expect(Object.keys(r.headers).filter((h) => /xsrf|content-type|content-length|authorization|cookie/i.test(h))).toEqual([]);
    }
  });
});
