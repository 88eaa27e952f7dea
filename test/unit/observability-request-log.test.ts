import http from 'node:http';
import { AddressInfo } from 'node:net';
import express from 'express';
import { correlator } from '../../src/http/correlator';
import { RequestMetrics, requestLog } from '../../src/http/request-log';
import { captureLogs } from '../support/log-capture';

const PARTNER = { name: 'demo-bank', apiKey: 'demo-key', secret: 'demo-secret', operations: new Set(['kyc']), enabled: true, signature: 'md5' };

/** The request log in front of three stand-in routes, on a real HTTP server. */
async function start(level = 'debug') {
  const logs = captureLogs(level);
  const observed: unknown[][] = [];
  const metrics: RequestMetrics = { request: (...args) => { observed.push(args); } };
  const app = express();
  app.use(correlator);
  app.use(requestLog(logs.logger, metrics));
  app.post('/eai/verify_customer/query/kyc', (_req, res) => {
    Object.assign(res.locals, { operation: 'kyc', partner: PARTNER, msisdn: '255712345678', code: '00000' });
    res.json({ code: '00000' });
  });
  app.post('/eai/verify_customer/query/sim_swap', (_req, res) => {
    Object.assign(res.locals, { operation: 'sim_swap', partner: PARTNER, msisdn: '255712345678', code: '9999' });
    res.status(503).json({ response: { code: '9999' } });
  });
  app.get('/healthz', (_req, res) => { res.json({ status: 'ok' }); });
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const requestLines = () => logs.lines().filter((l) => l.msg === 'request');
  return { logs, observed, base, requestLines, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('request log', () => {
  it('when a request is served, then one line is written with correlator, partner name, operation, code, status and latency, msisdn masked', async () => {
    const s = await start();
    try {
      const res = await fetch(`${s.base}/eai/verify_customer/query/kyc?api_key=demo-key&timestamp=1&sig=0123abcd`, {
        method: 'POST', headers: { 'x-correlator': 'corr-42', 'x-api-key': 'demo-key' }, body: '{}',
      });
      await res.text();
      await new Promise((r) => setImmediate(r));
      const lines = s.requestLines();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 'info', service: 'verify-customer', correlator: 'corr-42', partner: 'demo-bank', operation: 'kyc',
        interface: 'rest', msisdn: '2557*****678', code: '00000', status: 200, path: '/eai/verify_customer/query/kyc',
      });
      expect(typeof lines[0]?.ms).toBe('number');
      const raw = s.logs.raw().join('');
      for (const secret of ['demo-key', 'demo-secret', '0123abcd', '255712345678']) expect(raw).not.toContain(secret);
    } finally {
      await s.close();
    }
  });

  it('when a partner operation is served, then it is counted in the request metric, and a 5xx is logged at warn', async () => {
    const s = await start();
    try {
      await (await fetch(`${s.base}/eai/verify_customer/query/sim_swap`, { method: 'POST', body: '{}' })).text();
      await new Promise((r) => setImmediate(r));
      expect(s.observed).toHaveLength(1);
      expect(s.observed[0]?.slice(0, 4)).toEqual(['sim_swap', 'rest', '9999', 503]);
      expect(s.observed[0]?.[4]).toBeGreaterThan(0);
      expect(s.requestLines()[0]).toMatchObject({ level: 'warn', code: '9999', status: 503 });
    } finally {
      await s.close();
    }
  });

  it('when a probe is served, then it is left out of the request metric and logged at debug only', async () => {
    const s = await start('info');
    try {
      await (await fetch(`${s.base}/healthz`)).text();
      await (await fetch(`${s.base}/no-such-route`)).text();
      await new Promise((r) => setImmediate(r));
      expect(s.observed).toEqual([]);
      expect(s.requestLines().map((l) => [l.path, l.status, l.code])).toEqual([['/no-such-route', 404, '11111']]);
    } finally {
      await s.close();
    }
  });
});
