import { Server, Socket, createConnection, createServer } from 'node:net';

/**
 * A TCP proxy whose replies can be held back at will: stall(ms) delays everything the target
 * sends from now on by ms, in order (a later chunk never overtakes an earlier one), which is a
 * server too busy to answer within a client's command timeout while its connections stand.
 */
export interface StallingProxy {
  port: number;
  /** Replies sent from now on are delayed by ms (0: pass through at once). */
  stall(ms: number): void;
  close(): Promise<void>;
}

export async function startStallingProxy(targetPort: number): Promise<StallingProxy> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let lagMs = 0;
  let closed = false;
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    // Chunks wait in one queue per connection, sent strictly in order: timers of different
    // lengths due at the same moment may fire in any order, which would garble the replies.
    const queue: Array<{ dueAt: number; chunk: Buffer }> = [];
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      timer = undefined;
      while (queue.length > 0 && queue[0].dueAt <= Date.now()) {
        if (!closed) client.write(queue.shift()!.chunk);
        else queue.shift();
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
      // Never before the chunk ahead of it.
      const dueAt = Math.max(Date.now() + lagMs, queue.at(-1)?.dueAt ?? 0);
      queue.push({ dueAt, chunk });
      if (timer === undefined) flush();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');
  return {
    port: address.port,
    stall: (ms: number) => { lagMs = ms; },
    close: async () => {
      closed = true;
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
