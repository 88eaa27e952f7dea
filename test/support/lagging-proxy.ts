import { Server, Socket, createConnection, createServer } from 'node:net';

/**
 * A TCP proxy that holds everything flowing from the target back to the client for `lagMs`:
 * put between a replica and its master, it makes a replication link that far behind, as a
 * link between zones is. cut() is the master lost at that instant: the link drops, and what
 * was still on the way never arrives.
 */
export interface LaggingProxy {
  port: number;
  cut(): void;
  close(): Promise<void>;
}

export async function startLaggingProxy(targetPort: number, lagMs: number): Promise<LaggingProxy> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let cut = false;
  const server: Server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    for (const s of [client, upstream]) {
      s.setNoDelay(true);
      sockets.add(s);
      s.on('error', () => s.destroy());
      s.on('close', () => { sockets.delete(s); client.destroy(); upstream.destroy(); });
    }
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => {
      const t = setTimeout(() => { timers.delete(t); if (!cut) client.write(chunk); }, lagMs);
      timers.add(t);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');
  return {
    port: address.port,
    cut: () => {
      cut = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
    },
    close: async () => {
      cut = true;
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
