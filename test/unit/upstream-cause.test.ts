import http from 'node:http';
import { AddressInfo } from 'node:net';
import { HttpUpstream } from '../../src/verification/upstream/http-upstream';
import { Metrics } from '../../src/verification/ports/metrics';
import { UpstreamUnavailableError } from '../../src/errors/domain-errors';

/** Every metric is a no-op: this test is about the error, not the counts. */
const metrics = new Proxy({}, { get: () => () => undefined }) as Metrics;

function upstream(baseUrl: string): HttpUpstream<unknown> {
  return new HttpUpstream<unknown>({
    name: 'hlr', baseUrl, timeoutMs: 2000, maxSockets: 1, metrics, parse: (body) => body,
    breaker: { errorThresholdPercentage: 50, volumeThreshold: 100, windowMs: 10_000, resetTimeoutMs: 5000 },
  });
}

describe('an upstream failure keeps what really happened as its cause', () => {
  it('when the upstream refuses the connection, then the 503 error carries the call failure and its ECONNREFUSED', async () => {
    // A port that was just listening and is closed now: nothing answers there.
    const probe = http.createServer().listen(0, '127.0.0.1');
    await new Promise((r) => probe.once('listening', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise((r) => probe.close(r));
    const hlr = upstream(`http://127.0.0.1:${port}`);
    try {
      const err = await hlr.get('/subscribers/x', 'x').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UpstreamUnavailableError);
      expect((err as UpstreamUnavailableError).reason).toBe('hlr unreachable');
      expect((err as Error).cause).toMatchObject({ message: 'unreachable', code: 'ECONNREFUSED' });
    } finally {
      hlr.shutdown();
    }
  });

  it('when the upstream answers 500, then the 503 error carries the call failure naming the status', async () => {
    const server = http.createServer((_req, res) => { res.statusCode = 500; res.end(); }).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const hlr = upstream(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const err = await hlr.get('/subscribers/x', 'x').catch((e: unknown) => e);
      expect((err as Error).cause).toMatchObject({ message: 'answered HTTP 500' });
    } finally {
      hlr.shutdown();
      await new Promise((r) => server.close(r));
    }
  });
});
