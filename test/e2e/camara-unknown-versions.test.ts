import express from 'express';
import { AddressInfo } from 'node:net';
import { Server } from 'node:http';
import { withCamaraNotFound, servesCamaraRoot } from '../../src/camara/not-found-routes';
import { createLogger } from '../../src/observability/logger';
import { errorMiddleware, notFound } from '../../src/http/error-middleware';
import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';

/*
 * CONTRACT §7: any path under a CAMARA API's name, an unknown version or operation included, is
 * answered in ErrorInfo (404 NOT_FOUND) with an x-correlator, never the legacy 11111 body: a
 * client generated from a newer release must meet a body its schema knows.
 */

let c: CamaraHarness;
beforeAll(async () => { c = await startCamaraHarness(); });
afterAll(() => c?.close());

async function send(method: string, path: string): Promise<{ status: number; body: unknown; correlator: string | null }> {
  const res = await fetch(`${c.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json', 'x-correlator': 'unknown-version-1' },
    ...(method === 'GET' ? {} : { body: JSON.stringify({ phoneNumber: '+255712000001' }) }),
  });
  return { status: res.status, body: await res.json(), correlator: res.headers.get('x-correlator') };
}

describe('CAMARA paths with an unknown version or operation', () => {
  const paths = [
    '/kyc-match/v1/match', '/kyc-match/v0.3/match', '/sim-swap-subscriptions/v0.4/subscriptions', '/sim-swap-subscriptions/v0.4/subscriptions/abc',
    '/device-swap/v2/check', '/device-swap/v1/checks', '/sim-swap/v1/check', '/sim-swap/v3/retrieve-date', '/kyc-tenure/v1/check-tenure',
    '/call-forwarding-signal/v0.3/call-forwardings', '/number-recycling/v1/check', '/number-recycling', '/SIM-SWAP/V9/check', '/kyc-match/',
  ];
  it.each(paths.flatMap((p) => [['GET', p], ['POST', p]]))('when %s %s, then 404 NOT_FOUND in ErrorInfo with the x-correlator', async (method, path) => {
    const r = await send(method, path);
    expect(r).toEqual({ status: 404, body: { status: 404, code: 'NOT_FOUND', message: expect.any(String) as string }, correlator: 'unknown-version-1' });
  });

  it('when a path merely starts like a CAMARA name, or is the legacy API, then the legacy 404 stays (the control)', async () => {
    for (const path of ['/sim-swapper/v2/check', '/kyc/v1', '/eai/verify_customer/query/nothing']) {
      const r = await send('POST', path);
      expect([r.status, (r.body as { code?: string }).code]).toEqual([404, '11111']);
    }
  });

  it('when the version is the one mounted, then the operation is served (the control)', async () => {
    expect((await send('POST', '/sim-swap/v2/retrieve-date')).status).toBe(200);
  });
});

describe('the list of CAMARA names comes from what is mounted', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    const app = express();
    const later = servesCamaraRoot((req: express.Request, res: express.Response, next: express.NextFunction) => {
      if (req.path === '/later-api/v1/ask') res.json({ ok: true });
      else next();
    }, '/later-api/v1');
    for (const r of withCamaraNotFound(createLogger('silent'), [later])) app.use(r);
    app.use(notFound);
    app.use(errorMiddleware(createLogger('silent')));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('when an API added later is mounted, then its other versions are ErrorInfo 404 too, and other paths are not', async () => {
    expect((await fetch(`${url}/later-api/v1/ask`)).status).toBe(200);
    const unknown = await fetch(`${url}/later-api/v2/ask`, { method: 'POST' });
    expect([unknown.status, await unknown.json()]).toEqual([404, { status: 404, code: 'NOT_FOUND', message: expect.any(String) as string }]);
    expect(await (await fetch(`${url}/other/v2/ask`)).json()).toMatchObject({ code: '11111' });
  });
});
