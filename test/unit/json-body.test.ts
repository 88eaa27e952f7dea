import http from 'node:http';
import { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import express, { ErrorRequestHandler } from 'express';
import { DomainError } from '../../src/errors/domain-errors';
import { jsonBody } from '../../src/http/json-body';

/**
 * The REST body reader has a fast path for plain JSON with a Content-Length and hands every
 * other request to express.json(). Whichever path a request takes, the answer must be the one
 * body-parser gave: these cases pin that down, the unusual ones included.
 */
let server: http.Server;
let port: number;

beforeAll(async () => {
  const app = express();
  app.post('/echo', jsonBody(256), (req, res) => {
    res.json({ body: req.body as unknown });
  });
  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    const e = err as DomainError;
    res.status(e instanceof DomainError ? e.httpStatus : 500).json({ error: e.message });
  };
  app.use(onError);
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise((r) => server.close(r)));

interface Sent {
  body: Buffer | string;
  headers?: Record<string, string>;
  /** Send without Content-Length (chunked). */
  chunked?: boolean;
}

interface EchoAnswer {
  body?: unknown;
  error?: string;
}

/** The echo route's answer: {body} or {error}, as the app above writes them. */
function echoAnswer(text: string): EchoAnswer {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`not an echo answer: ${text}`);
  return parsed;
}

function post({ body, headers = {}, chunked = false }: Sent): Promise<{ status: number; json: EchoAnswer }> {
  return new Promise((resolve, reject) => {
    const all: Record<string, string | number> = { 'content-type': 'application/json', ...headers };
    if (!chunked) all['content-length'] = Buffer.byteLength(body);
    const req = http.request({ host: '127.0.0.1', port, path: '/echo', method: 'POST', headers: all }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: echoAnswer(text) }));
    });
    req.on('error', reject);
    if (chunked) {
      const s = Buffer.from(body);
      req.write(s.subarray(0, 3));
      req.end(s.subarray(3));
    } else {
      req.end(body);
    }
  });
}

describe('REST JSON body reader', () => {
  const obj = { txn_id: 'a1', msisdn: '255712000001' };

  it.each<[string, Sent]>([
    ['plain JSON', { body: JSON.stringify(obj) }],
    ['JSON with charset=utf-8', { body: JSON.stringify(obj), headers: { 'content-type': 'application/json; charset=utf-8' } }],
    ['an upper-case content type', { body: JSON.stringify(obj), headers: { 'content-type': 'Application/JSON' } }],
    ['a byte-order mark first', { body: `\uFEFF${JSON.stringify(obj)}` }],
    ['whitespace before the object', { body: `\n\t ${JSON.stringify(obj)}` }],
    ['a chunked body (no Content-Length)', { body: JSON.stringify(obj), chunked: true }],
    ['a gzip-encoded body', { body: gzipSync(JSON.stringify(obj)), headers: { 'content-encoding': 'gzip' } }],
    ['a content type with another parameter', { body: JSON.stringify(obj), headers: { 'content-type': 'application/json; foo=bar' } }],
  ])('parses %s', async (_name, sent) => {
    const r = await post(sent);
    expect(r.status).toBe(200);
    expect(r.json.body).toEqual(obj);
  });

  it('when the body is empty, then it reads as an empty object, as body-parser does', async () => {
    const r = await post({ body: '' });
    expect(r.status).toBe(200);
    expect(r.json.body).toEqual({});
  });

  it.each<[string, Sent]>([
    ['a JSON string', { body: '"hello"' }],
    ['a JSON number', { body: '42' }],
    ['only whitespace', { body: '   ' }],
    ['malformed JSON', { body: '{"txn_id": "a",' }],
    ['malformed chunked JSON', { body: '{"txn_id": "a",', chunked: true }],
  ])('refuses %s with 400', async (_name, sent) => {
    const r = await post(sent);
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('body is not valid JSON');
  });

  it.each<[string, Sent]>([
    ['with a Content-Length', { body: JSON.stringify({ pad: 'x'.repeat(300) }) }],
    ['chunked', { body: JSON.stringify({ pad: 'x'.repeat(300) }), chunked: true }],
  ])('refuses a body over the limit %s with 413', async (_name, sent) => {
    const r = await post(sent);
    expect(r.status).toBe(413);
  });

  it('when the charset is not UTF-8, then it is refused with 400', async () => {
    const r = await post({ body: JSON.stringify(obj), headers: { 'content-type': 'application/json; charset=latin1' } });
    expect(r.status).toBe(400);
  });

  it('when the content type is another, then it is refused with 400', async () => {
    const r = await post({ body: JSON.stringify(obj), headers: { 'content-type': 'text/plain' } });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('Content-Type must be application/json');
  });
});
