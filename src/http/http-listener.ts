import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Config } from '../config/config';

/** An HTTP server with the service's timeouts, not yet listening. */
export function createHttpServer(config: Pick<Config, 'REQUEST_TIMEOUT_MS' | 'HEADERS_TIMEOUT_MS'>): http.Server {
  // Node checks both timeouts every connectionsCheckingInterval (default 30 s); check often
  // enough that a slowloris client is cut close to the configured time.
  return http.createServer({
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    headersTimeout: config.HEADERS_TIMEOUT_MS,
    connectionsCheckingInterval: Math.min(5000, Math.max(100, Math.floor(config.HEADERS_TIMEOUT_MS / 4))),
    keepAliveTimeout: 65_000,
  });
}

/** Listens; resolves with the port (the one picked when port is 0). */
export async function listen(server: http.Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** The address to print and call: a wildcard interface is reached on loopback. */
export function shownHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
}
