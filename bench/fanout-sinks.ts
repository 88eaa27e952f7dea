import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Arrival } from './fanout-summary';

/** Epoch ms with sub-millisecond precision: the one clock of the burst's send times and the sinks' arrivals. */
export const nowMs = (): number => performance.timeOrigin + performance.now();

/**
 * F1's partner webhook receivers: plain node:http servers in the bench process, one port (so
 * one sink origin, the unit of WEBHOOK_SINK_CONCURRENCY) each. Every readable CloudEvent is
 * answered 204 and recorded with its arrival time; anything else gets 400 (the service would
 * retry it, which the run would show as duplicates or lost events).
 */
export interface FanoutSinks {
  urls: string[];
  arrivals: Arrival[];
  /** Distinct event ids received since the last reset (polled while waiting for the burst). */
  distinct(): number;
  /** Requests that were not a CloudEvent with an id, a type, a time and data.subscriptionId. */
  malformed: number;
  /** Forgets everything received (after the warm-up). */
  reset(): void;
  close(): Promise<void>;
}

interface EventBody {
  id?: unknown;
  type?: unknown;
  time?: unknown;
  data?: { subscriptionId?: unknown };
}

export async function startSinks(count: number): Promise<FanoutSinks> {
  const servers: http.Server[] = [];
  let ids = new Set<string>();
  const sinks: FanoutSinks = {
    urls: [],
    arrivals: [],
    distinct: () => ids.size,
    malformed: 0,
    reset: () => {
      sinks.arrivals = [];
      ids = new Set();
      sinks.malformed = 0;
    },
    close: () => Promise.all(servers.map((s) => new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    }))).then(() => undefined),
  };
  for (let sink = 0; sink < count; sink++) {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const atMs = nowMs();
        let body: EventBody;
        try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as EventBody; } catch { body = {}; }
        const { id, type, time, data } = body;
        const subscriptionId = data?.subscriptionId;
        if (typeof id !== 'string' || typeof type !== 'string' || typeof time !== 'string' || typeof subscriptionId !== 'string') {
          sinks.malformed++;
          res.writeHead(400).end();
          return;
        }
        sinks.arrivals.push({ sink, eventId: id, type, subscriptionId, eventTimeMs: Date.parse(time), atMs });
        ids.add(id);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    servers.push(server);
    sinks.urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}/events`);
  }
  return sinks;
}
