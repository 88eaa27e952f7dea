import { createServer } from 'node:net';
import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { gql } from '../support/graphql-client';
import { txnId } from '../support/harness';
import { captureLogs } from '../support/log-capture';

/** A TCP port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * CONTRACT §1.5: the correlator on every log line of a request, whichever module logs it. The
 * upstreams are a closed port, so each request below logs its upstream failure, then its line.
 */
describe('log lines of a request whose upstream refuses the connection', () => {
  const logs = captureLogs('debug');
  let c: CamaraHarness;
  beforeAll(async () => {
    const port = await closedPort();
    c = await startCamaraHarness({
      logger: logs.logger,
      // A breaker that never opens: every request makes its own upstream call.
      env: { HLR_URL: `http://127.0.0.1:${port}/hlr`, SIM_URL: `http://127.0.0.1:${port}/sim`, BREAKER_VOLUME_THRESHOLD: '100000' },
    });
  });
  afterAll(() => c?.close());

  /** Sends one request, waits for its request line, and returns every line written meanwhile. */
  async function linesOf(send: () => Promise<{ status: number }>, expectedStatus: number): Promise<Record<string, unknown>[]> {
    const from = logs.raw().length;
    const r = await send();
    expect(r.status).toBe(expectedStatus);
    const until = Date.now() + 5000;
    while (!logs.lines().slice(from).some((l) => l.msg === 'request')) {
      if (Date.now() > until) throw new Error('no request line');
      await new Promise((resolve) => setImmediate(resolve));
    }
    return logs.lines().slice(from);
  }

  it.each<[string, (correlator: string) => Promise<{ status: number }>, number]>([
    ['legacy KYC', (x) => c.h.post('kyc', { txn_id: txnId('l'), msisdn: '255712000001' }, { headers: { 'x-correlator': x } }), 503],
    ['legacy SIM swap', (x) => c.h.post('sim_swap', { txn_id: txnId('l'), msisdn: '0712000001' }, { headers: { 'x-correlator': x } }), 503],
    ['CAMARA check', (x) => c.call('/sim-swap/v2/check', { phoneNumber: '+255712000001' }, { headers: { 'x-correlator': x } }), 503],
    ['GraphQL kyc', (x) => gql(c.h, '{ kyc(msisdn: "255712000001") { isValid } }', undefined, { headers: { 'x-correlator': x } }), 200],
  ])('when a %s request fails upstream, then every line it logs carries its correlator and the failure its ECONNREFUSED', async (name, send, status) => {
    const correlator = `log-${name.replace(/\W/g, '-')}-${Date.now()}`;
    const lines = await linesOf(() => send(correlator), status);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.filter((l) => l.correlator !== correlator)).toEqual([]);
    const failure = lines.find((l) => l.msg === 'upstream call failed: unreachable');
    expect(failure).toMatchObject({ level: 'warn', code: 'ECONNREFUSED', correlator });
    // The error and its cause, reduced to what is safe to log: no URL, no msisdn.
    const err = failure?.err as { code?: string; message?: string } | undefined;
    expect(err?.code).toBe('ECONNREFUSED');
    expect(err?.message).toMatch(/ECONNREFUSED/);
    const raw = JSON.stringify(lines);
    expect(raw).not.toMatch(/255712000001|712000001/);
  });

});

describe('the breaker line when refused connections open it', () => {
  const logs = captureLogs('info');
  let c: CamaraHarness;
  beforeAll(async () => {
    const port = await closedPort();
    c = await startCamaraHarness({
      logger: logs.logger,
      env: { HLR_URL: `http://127.0.0.1:${port}/hlr`, SIM_URL: `http://127.0.0.1:${port}/sim`, BREAKER_VOLUME_THRESHOLD: '1' },
    });
  });
  afterAll(() => c?.close());

  it('when the first refused call opens the HLR breaker, then its line names ECONNREFUSED and the request that tipped it', async () => {
    const r = await c.h.post('kyc', { txn_id: txnId('b'), msisdn: '255712000001' }, { headers: { 'x-correlator': 'tipped-it' } });
    expect(r.status).toBe(503);
    const opened = logs.lines().find((l) => l.msg === 'circuit breaker changed state' && l.state === 'open');
    expect(opened).toMatchObject({ upstream: 'hlr', correlator: 'tipped-it', lastFailure: { outcome: 'error', code: 'ECONNREFUSED', message: 'unreachable' } });
  });
});
