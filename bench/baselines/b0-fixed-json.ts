import http from 'node:http';

/**
 * B0: the machine's ceiling. A bare node:http server that reads the request (as any server
 * must) and answers a fixed JSON body of the size a KYC success has. Nothing else.
 */
const BODY = Buffer.from(JSON.stringify({
  code: '00000', desc: 'Success',
  result: { msisdn: '255712000001', is_prepaid: 'true', is_active: 'true', is_valid: 'true' },
}));

const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': BODY.length });
    res.end(BODY);
  });
});

server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
