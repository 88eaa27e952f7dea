import http from 'node:http';
import { Socket } from 'node:net';

/**
 * Graceful shutdown of the HTTP server without losing a request on a keep-alive connection
 * (a client may send its next request on a connection the server is closing). Two steps:
 *
 * - announce(): from now on every response not yet started says `Connection: close`, so no
 *   client sends another request on a connection the server is about to close. A request
 *   that arrives on an open connection is still answered (with `Connection: close`). The one
 *   exception is pipelining: when a request is already read behind an unanswered one on the
 *   same connection, the earlier answer keeps the connection open, so the later one is
 *   answered too; the last answer says close.
 * - drain(graceMs): stops accepting and closes each connection once it is idle after its last
 *   answer. A connection accepted but without a request yet, or with one partly read, is not
 *   idle: its request is answered (with close). Whatever is still open after graceMs is cut.
 *
 * Both need to see every request before the app writes to it: create this before the app's
 * 'request' listener is added.
 */
export interface ServerShutdown {
  announce(): void;
  drain(graceMs: number): Promise<void>;
}

const SWEEP_MS = 50;

export function prepareShutdown(server: http.Server): ServerShutdown {
  let announced = false;
  const sockets = new Set<Socket>();
  /** The last response started on each connection. */
  const latest = new WeakMap<Socket, http.ServerResponse>();
  /** Responses told to close, with the keep-alive Node had decided for them. */
  const overridden = new WeakMap<http.ServerResponse, boolean>();

  const closeAfter = (res: http.ServerResponse) => {
    if (res.headersSent || overridden.has(res)) return;
    overridden.set(res, res.shouldKeepAlive);
    res.shouldKeepAlive = false;
  };

  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    if (announced) {
      const previous = latest.get(socket);
      const keepAlive = previous ? overridden.get(previous) : undefined;
      if (previous && keepAlive !== undefined && !previous.headersSent) {
        previous.shouldKeepAlive = keepAlive; // pipelined: this request needs the connection after it
        overridden.delete(previous);
      }
      closeAfter(res);
    }
    latest.set(socket, res);
  });

  return {
    announce() {
      announced = true;
      for (const socket of sockets) {
        const res = latest.get(socket);
        if (res && !res.writableFinished) closeAfter(res);
      }
    },
    async drain(graceMs) {
      // Node's close() and closeIdleConnections() close a connection only when it is idle after
      // an answer: one accepted whose request has not arrived yet, or is partly read, stays
      // open until its request is answered (or the grace period ends).
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const sweeper = setInterval(() => server.closeIdleConnections(), SWEEP_MS);
      const force = setTimeout(() => server.closeAllConnections(), graceMs);
      try {
        await closed;
      } finally {
        clearInterval(sweeper);
        clearTimeout(force);
      }
    },
  };
}
