import http from 'node:http';
import { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import axios, { AxiosError, AxiosInstance, CreateAxiosDefaults } from 'axios';
import { UndiciAdapter, undiciAdapter } from '../../src/verification/upstream/undici-adapter';

/**
 * The undici adapter must behave as axios's own http adapter does for everything HttpUpstream
 * relies on: each case runs on both, against one local server, and compares what a caller sees.
 */
type Reply = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const routes: Record<string, Reply> = {
  '/json': (_q, r) => { r.writeHead(200, { 'content-type': 'application/json' }); r.end('\uFEFF{"status":"active","n":1}'); },
  '/not-found': (_q, r) => { r.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }); r.end('{"error":"not_found","msisdn":"255712000001"}'); },
  '/html-404': (_q, r) => { r.writeHead(404, { 'content-type': 'text/html' }); r.end('<h1>nope</h1>'); },
  '/boom': (_q, r) => { r.writeHead(503, { 'content-type': 'text/plain' }); r.end('down'); },
  '/moved': (_q, r) => { r.writeHead(301, { location: '/json' }); r.end(); },
  '/big': (_q, r) => { r.writeHead(200, { 'content-type': 'application/json' }); r.end(`"${'x'.repeat(70_000)}"`); },
  '/big-chunked': (_q, r) => { r.writeHead(200, { 'content-type': 'application/json' }); r.write(`"${'x'.repeat(40_000)}`); r.end(`${'x'.repeat(40_000)}"`); },
  '/gzip': (_q, r) => { r.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }); r.end(gzipSync('{"zipped":true}')); },
  '/slow': (_q, r) => { setTimeout(() => { r.writeHead(200, { 'content-type': 'application/json' }); r.end('{}'); }, 1000).unref(); },
  '/reset': (q) => { q.socket.destroy(); },
  '/echo': (q, r) => { r.writeHead(200, { 'content-type': 'application/json' }); r.end(JSON.stringify({ url: q.url, accept: q.headers.accept, x: q.headers['x-test'] })); },
};

let server: http.Server;
let base: string;
const pools: UndiciAdapter[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const route = routes[(req.url ?? '').split('?')[0].replace(/^\/api/, '')];
    if (route) route(req, res);
    else { res.writeHead(500); res.end(); }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.destroy()));
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The same axios settings as HttpUpstream's, on either adapter. */
function clients(extra: CreateAxiosDefaults = {}): [string, AxiosInstance][] {
  const settings: CreateAxiosDefaults = {
    baseURL: base, validateStatus: () => true, maxRedirects: 0, maxContentLength: 64 * 1024, headers: { accept: 'application/json' }, ...extra,
  };
  const pool = undiciAdapter(base, { connections: 4 });
  pools.push(pool);
  return [['axios http adapter', axios.create(settings)], ['undici adapter', axios.create({ ...settings, adapter: pool.adapter })]];
}

/** What HttpUpstream and its logs read from a failure. */
function seen(err: unknown) {
  const e = err as AxiosError & { cause?: { code?: string } };
  return {
    isAxiosError: axios.isAxiosError(e), isCancel: axios.isCancel(e), code: e.code, message: e.message,
    status: e.response?.status, causeCode: e.cause?.code,
  };
}

async function both<T>(run: (c: AxiosInstance) => Promise<T>, extra?: CreateAxiosDefaults): Promise<[T | ReturnType<typeof seen>, T | ReturnType<typeof seen>]> {
  const [[, a], [, b]] = clients(extra);
  const settle = (p: Promise<T>) => p.then((v) => v, (err: unknown) => seen(err));
  return [await settle(run(a)), await settle(run(b))];
}

const answer = (c: AxiosInstance, path: string, config = {}) => c.get(path, config).then((r) => ({
  status: r.status, data: r.data as unknown, contentType: r.headers['content-type'] as unknown,
}));

describe('undici adapter under axios: what HttpUpstream sees is what axios\'s http adapter gives', () => {
  it.each(['/json', '/not-found', '/html-404', '/boom', '/moved', '/gzip'])('when the upstream answers %s, then status, parsed body and content-type are the same', async (path) => {
    const [viaHttp, viaUndici] = await both((c) => answer(c, path));
    expect(viaUndici).toEqual(viaHttp);
  });

  it('when the path is relative, then it is joined to the base URL\'s path, with the config\'s headers and params', async () => {
    const [viaHttp, viaUndici] = await both((c) => answer(c, 'echo', { params: { q: '1 2' }, headers: { 'x-test': 'yes' } }));
    expect(viaUndici).toEqual(viaHttp);
    expect((viaUndici as { data: { url: string } }).data.url).toBe('/api/echo?q=1+2');
  });

  it.each(['/big', '/big-chunked'])('when the body at %s passes maxContentLength, then both reject with ERR_BAD_RESPONSE', async (path) => {
    const [viaHttp, viaUndici] = await both((c) => answer(c, path));
    expect(viaHttp).toMatchObject({ isAxiosError: true, code: 'ERR_BAD_RESPONSE', message: 'maxContentLength size of 65536 exceeded' });
    expect(viaUndici).toEqual(viaHttp);
  });

  it('when the caller\'s signal aborts the call, then both reject with a cancel (axios.isCancel)', async () => {
    const [viaHttp, viaUndici] = await both((c) => {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 50);
      return answer(c, '/slow', { signal: ac.signal });
    });
    expect(viaHttp).toMatchObject({ isCancel: true, code: 'ERR_CANCELED' });
    expect(viaUndici).toEqual(viaHttp);
  });

  it('when the config\'s timeout passes, then both reject with ECONNABORTED and axios\'s message', async () => {
    const [viaHttp, viaUndici] = await both((c) => answer(c, '/slow'), { timeout: 50 });
    expect(viaHttp).toMatchObject({ isAxiosError: true, isCancel: false, code: 'ECONNABORTED', message: 'timeout of 50ms exceeded' });
    expect(viaUndici).toEqual(viaHttp);
  });

  it('when validateStatus refuses a status, then both reject with ERR_BAD_REQUEST or ERR_BAD_RESPONSE carrying the response', async () => {
    for (const [path, code, status] of [['/not-found', 'ERR_BAD_REQUEST', 404], ['/boom', 'ERR_BAD_RESPONSE', 503]] as const) {
      const [viaHttp, viaUndici] = await both((c) => answer(c, path), { validateStatus: (s) => s < 300 });
      expect(viaHttp).toMatchObject({ code, status });
      expect(viaUndici).toEqual(viaHttp);
    }
  });

  it('when nothing listens on the port, then both reject with the system code ECONNREFUSED on the error and its cause', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const pool = undiciAdapter(url, { connections: 1 });
    pools.push(pool);
    const viaHttp = await axios.get(`${url}/x`).catch(seen);
    const viaUndici = await axios.get(`${url}/x`, { adapter: pool.adapter }).catch(seen);
    expect(viaHttp).toMatchObject({ isAxiosError: true, code: 'ECONNREFUSED', causeCode: 'ECONNREFUSED' });
    expect(viaUndici).toMatchObject({ isAxiosError: true, code: 'ECONNREFUSED', causeCode: 'ECONNREFUSED', isCancel: false, status: undefined });
  });

  it('when the upstream drops the connection mid-request, then the undici adapter rejects with an AxiosError, never a cancel', async () => {
    const [, [, viaUndici]] = clients();
    const got = await answer(viaUndici, '/reset').catch(seen);
    expect(got).toMatchObject({ isAxiosError: true, isCancel: false, status: undefined });
  });

  it('when an absolute URL names another origin, then the undici adapter refuses it rather than sending it to its own pool', async () => {
    const [, [, viaUndici]] = clients();
    await expect(viaUndici.get('http://example.invalid/x')).rejects.toMatchObject({ code: 'ERR_BAD_OPTION_VALUE' });
  });
});
