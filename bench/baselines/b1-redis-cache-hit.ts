import http from 'node:http';
import { cacheHit, connectRedis } from './cache-hit-work';

/**
 * B1: the limit of this design. A bare node:http + ioredis handler doing the Redis work a
 * cache hit needs (cache-hit-work.ts). Everything the service adds is above this line.
 */
const redis = connectRedis();

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const { txn_id: txnId, msisdn } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { txn_id: string; msisdn: string };
    cacheHit(redis, txnId, msisdn).then(
      ({ status, body }) => {
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      },
      () => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"code":"9999","desc":"Unexpected system Error"}');
      },
    );
  });
});

server.keepAliveTimeout = 65_000;
redis.once('ready', () => {
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`);
  });
});
process.on('SIGTERM', () => server.close(() => { redis.disconnect(); process.exit(0); }));
