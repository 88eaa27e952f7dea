import http from 'node:http';
import { AddressInfo } from 'node:net';
import { UpstreamUnavailableError } from '../../src/errors/domain-errors';
import { Metrics, RefusedReply, noopMetrics } from '../../src/verification/ports/metrics';
import { CrmHttpClient } from '../../src/verification/upstream/crm-http-client';
import { HlrHttpClient } from '../../src/verification/upstream/hlr-http-client';
import { SimHttpClient } from '../../src/verification/upstream/sim-http-client';
import { BombEncoding, compressionBombs, brotli } from '../support/compression-bombs';

/*
 * Upstream replies are untrusted bytes (CONTRACT §3), on both transports HttpUpstream offers:
 * a compressed body is bounded after decoding (a 252-byte br body inflating to 200 MB is
 * dropped after 64 KiB of output), and a 200 about another number is not used. Over real
 * HTTP, from a server of the test's own.
 */

jest.setTimeout(60_000);

const ASKED = '255712000015';
const OTHER = '255712000099';
let bombs: Record<BombEncoding, Buffer>;
let reply: (path: string) => { body: Buffer | string; encoding?: string };
let server: http.Server;
let base: string;

beforeAll(async () => {
  bombs = await compressionBombs();
  server = http.createServer((req, res) => {
    const r = reply(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json', ...(r.encoding ? { 'content-encoding': r.encoding } : {}) });
    res.end(r.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const records = {
  hlr: (m: string) => ({ msisdn: m, status: 'active', paymentType: 'prepaid' }),
  sim: (m: string) => ({ msisdn: m, iccid: '8925500000000000015', lastSimSwapAt: null }),
  crm: (m: string) => ({ msisdn: m, givenName: 'Amani' }),
};

describe.each(['undici', 'node-http'] as const)('untrusted upstream replies (transport %s)', (transport) => {
  const refused: [string, RefusedReply][] = [];
  const metrics: Metrics = { ...noopMetrics, upstreamReplyRefused: (u, r) => { refused.push([u, r]); } };
  const opts = { timeoutMs: 20_000, maxSockets: 4, metrics, transport, breaker: { errorThresholdPercentage: 50, volumeThreshold: 1000, windowMs: 10_000, resetTimeoutMs: 1000 } };
  let clients: { hlr: HlrHttpClient; sim: SimHttpClient; crm: CrmHttpClient };
  const lookups = {
    hlr: (m: string) => clients.hlr.lookup(m),
    sim: (m: string) => clients.sim.lookup(m),
    crm: (m: string) => clients.crm.identity(m),
  };

  beforeAll(() => {
    clients = { hlr: new HlrHttpClient({ ...opts, baseUrl: base }), sim: new SimHttpClient({ ...opts, baseUrl: base }), crm: new CrmHttpClient({ ...opts, baseUrl: base }) };
  });
  afterAll(() => { for (const c of Object.values(clients)) c.upstream.shutdown(); });
  beforeEach(() => { refused.length = 0; });

  it.each(['hlr', 'sim', 'crm'] as const)('when %s answers a small br-compressed record about the number asked, then it is read (the control)', async (name) => {
    reply = () => ({ body: brotli(JSON.stringify(records[name](ASKED))), encoding: 'br' });
    await expect(lookups[name](ASKED)).resolves.toBeTruthy();
    expect(refused).toEqual([]);
  });

  it.each((['hlr', 'sim', 'crm'] as const).flatMap((name) => (['br', 'gzip', 'deflate'] as const).map((enc) => [name, enc] as const)))(
    'when %s answers a %s bomb of 200 MB, then it is refused as unavailable after at most the limit of output, and counted as too large',
    async (name, enc) => {
      reply = () => ({ body: bombs[enc], encoding: enc });
      const before = process.memoryUsage().rss;
      const started = Date.now();
      await expect(lookups[name](ASKED)).rejects.toBeInstanceOf(UpstreamUnavailableError);
      const grewMb = (process.memoryUsage().rss - before) / 2 ** 20;
      expect(refused).toEqual([[name, 'too_large']]);
      // Inflating the whole 200 MB took over a second and 200 MB+; the bound stops within a chunk of 64 KiB.
      expect(grewMb).toBeLessThan(100);
      expect(Date.now() - started).toBeLessThan(5000);
    },
  );

  it.each(['hlr', 'sim', 'crm'] as const)('when %s answers a 200 about another number, then it is not used: unavailable, counted', async (name) => {
    reply = () => ({ body: JSON.stringify(records[name](OTHER)) });
    await expect(lookups[name](ASKED)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(refused).toEqual([[name, 'other_subscriber']]);
    // The same body about the number asked is read: only the number made the difference.
    reply = () => ({ body: JSON.stringify(records[name](ASKED)) });
    await expect(lookups[name](ASKED)).resolves.toBeTruthy();
  });

  it.each(['hlr', 'sim', 'crm'] as const)('when %s names the number as a JSON number rather than the string asked, then it is not used', async (name) => {
    reply = () => ({ body: JSON.stringify({ ...records[name](ASKED), msisdn: Number(ASKED) }) });
    await expect(lookups[name](ASKED)).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });
});
