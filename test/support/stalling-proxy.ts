import { Server, Socket, createConnection, createServer } from 'node:net';

/**
 * A TCP proxy that holds back what the target sends, in order (a later chunk never overtakes an
 * earlier one): stall(ms) delays every reply from then on by ms, which is a server too busy to
 * answer within a client's command timeout while its connections stand (or, with a fixed lag
 * from the start, a replication link that far behind). cut() is the target lost at that instant:
 * every link drops, what was still on the way never arrives, and new connections are refused.
 */
export interface StallingProxy {
  port: number;
  /** Replies sent from now on are delayed by ms (0: pass through at once). */
  stall(ms: number): void;
  cut(): void;
  close(): Promise<void>;
}

export async function startStallingProxy(targetPort: number, initialLagMs = 0): Promise<StallingProxy> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let lagMs = initialLagMs;
  let cut = false;
  const server: Server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    // Chunks wait in one queue per connection, sent strictly in order: timers of different
    // lengths due at the same moment may fire in any order, which would garble the replies.
    const queue: Array<{ dueAt: number; chunk: Buffer }> = [];
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      if (timer) timers.delete(timer);
      timer = undefined;
      while (queue.length > 0 && queue[0].dueAt <= Date.now()) {
        const { chunk } = queue.shift()!;
        if (!cut) client.write(chunk);
      }
      if (queue.length > 0) {
        timer = setTimeout(flush, queue[0].dueAt - Date.now());
        timers.add(timer);
      }
    };
    for (const s of [client, upstream]) {
      s.setNoDelay(true);
      sockets.add(s);
      s.on('error', () => s.destroy());
      s.on('close', () => { sockets.delete(s); client.destroy(); upstream.destroy(); });
    }
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      queue.push({ dueAt: Math.max(Date.now() + lagMs, queue.at(-1)?.dueAt ?? 0), chunk });
      if (timer === undefined) flush();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');
  const drop = () => {
    cut = true;
    for (const t of timers) clearTimeout(t);
    timers.clear();
    for (const s of sockets) s.destroy();
  };
  return {
    port: address.port,
    stall: (ms: number) => { lagMs = ms; },
    cut: drop,
    close: async () => {
      drop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
