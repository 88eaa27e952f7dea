import express from 'express';
import { Pool } from 'undici';
import { connectScriptedRedis, serviceWork } from './service-redis-work';

/**
 * B3: B2 (Express 5 + express.json) doing exactly S1's Redis commands (service-redis-work.ts).
 * With UPSTREAM_URL set it is B4: B3 plus one keep-alive GET to the HLR per request (undici)
 * after the cache read, so S2 (a cache miss, distinct numbers) has a floor of its own.
 */
const redis = connectScriptedRedis();
const upstream = process.env.UPSTREAM_URL ? new URL(process.env.UPSTREAM_URL) : undefined;
const pool = upstream ? new Pool(upstream.origin, { connections: 64 }) : undefined;
const lookup = pool && upstream ? async (msisdn: string) => {
  const res = await pool.request({ path: `${upstream.pathname}/subscribers/${msisdn}`, method: 'GET', headers: { accept: 'application/json' } });
  return JSON.parse(await res.body.text()) as unknown;
} : undefined;

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.post('/eai/verify_customer/query/kyc', express.json({ limit: 8192 }), async (req, res) => {
  const { txn_id: txnId, msisdn } = req.body as { txn_id: string; msisdn: string };
  const { status, body } = await serviceWork(redis, txnId, msisdn, lookup);
  res.status(status).type('application/json').send(body);
});

redis.once('ready', () => {
  const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`);
  });
  server.keepAliveTimeout = 65_000;
  process.on('SIGTERM', () => server.close(() => { redis.disconnect(); void pool?.close(); process.exit(0); }));
});
