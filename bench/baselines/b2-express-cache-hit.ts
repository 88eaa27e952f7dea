import express from 'express';
import { cacheHit, connectRedis } from './cache-hit-work';

/**
 * B2: B1's work on Express 5 with express.json(), no other middleware: what the framework
 * alone costs next to B1. Not a target, a yardstick for how far the service can get on Express.
 */
const redis = connectRedis();
const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.post('/eai/verify_customer/query/kyc', express.json({ limit: 8192 }), async (req, res) => {
  const { txn_id: txnId, msisdn } = req.body as { txn_id: string; msisdn: string };
  const { status, body } = await cacheHit(redis, txnId, msisdn);
  res.status(status).type('application/json').send(body);
});

redis.once('ready', () => {
  const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`);
  });
  server.keepAliveTimeout = 65_000;
  process.on('SIGTERM', () => server.close(() => { redis.disconnect(); process.exit(0); }));
});
