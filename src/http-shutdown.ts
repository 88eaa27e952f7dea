import http from 'node:http';
import net, { Socket } from 'node:net';

/**
 * Graceful shutdown of the HTTP server without losing a request on a keep-alive connection
 * (issue 16.1). Two steps:
 *
 * - announce(): from now on every response not yet started says `Connection: close`, so no
 *   client sends another request on a connection the server is about to close. A request
 *   that arrives on an open connection is still answered (with `Connection: close`). The one
 *   exception is pipelining: when a request is already read behind an unanswered one on the
 *   same connection, the earlier answer keeps the connection open, so the later one is
 *   answered too; the last answer says close.
 * - drain(graceMs): stops accepting and closes each connection once it is idle after its last
 *   answer. A connection accepted but without a request yet, or with one partly read, is not
 *   idle: its request is answered (with close); one that sends nothing for a second is closed.
 *   Whatever is still open after graceMs is cut.
 *
 * Both need to see every request before the app writes to it: create this before the app's
 * 'request' listener is added.
 */
export interface ServerShutdown {
  announce(): void;
  drain(graceMs: number): Promise<void>;
}

const SWEEP_MS = 50;
const FRESH_IDLE_MS = 1000;
const MAX_ACCEPT_TURNS = 20;

export function prepareShutdown(server: http.Server): ServerShutdown {
  let announced = false;
  const sockets = new Set<Socket>();
  /** The last response started on each connection. */
  const latest = new WeakMap<Socket, http.ServerResponse>();
  /** Bytes read on a connection when its last response finished: more since means a new request. */
  const readAtFinish = new WeakMap<Socket, number>();
  /** Responses told to close, with the keep-alive Node had decided for them. */
  const overridden = new WeakMap<http.ServerResponse, boolean>();
  const acceptedAt = new WeakMap<Socket, number>();
  let accepted = 0;

  const closeAfter = (res: http.ServerResponse) => {
    if (res.headersSent || overridden.has(res)) return;
    overridden.set(res, res.shouldKeepAlive);
    res.shouldKeepAlive = false;
  };

  server.on('connection', (socket: Socket) => {
    accepted++;
    sockets.add(socket);
    acceptedAt.set(socket, Date.now());
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
    res.once('finish', () => readAtFinish.set(socket, socket.bytesRead));
  });

  /**
   * Idle: its last response finished and nothing was read since; or, never used, it has sent
   * nothing for FRESH_IDLE_MS (a request being written arrives well within that).
   */
  const idle = (socket: Socket, now: number): boolean => {
    const res = latest.get(socket);
    if (res === undefined) return socket.bytesRead === 0 && now - (acceptedAt.get(socket) ?? now) >= FRESH_IDLE_MS;
    return res.writableFinished && readAtFinish.get(socket) === socket.bytesRead;
  };

  return {
    announce() {
      announced = true;
      for (const socket of sockets) {
        const res = latest.get(socket);
        if (res && !res.writableFinished) closeAfter(res);
      }
    },
    async drain(graceMs) {
      // The kernel resets the connections it completed but the service has not accepted yet
      // when the listener closes. Close right after an event-loop turn that accepted nothing,
      // when that queue is as short as it gets (a few turns at most).
      for (let turn = 0; turn < MAX_ACCEPT_TURNS; turn++) {
        const before = accepted;
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (accepted === before) break;
      }
      // net.Server's close, not http.Server's: the latter also destroys connections that are
      // accepted but have not delivered their request yet, and that request would be lost.
      const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
      const sweep = () => {
        const now = Date.now();
        for (const socket of sockets) if (idle(socket, now)) socket.destroy();
      };
      sweep();
      const sweeper = setInterval(sweep, SWEEP_MS);
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
