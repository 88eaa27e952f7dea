import http from 'node:http';
import { AddressInfo } from 'node:net';
import { until } from './until';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> & { id: string; type: string; data: Record<string, string> };
  atMs: number;
  /** The status the sink answered. */
  status: number;
}

/** What the sink answers a request with: a status, or 'hang' (never answers). */
export type SinkReply = number | 'hang';

export interface SinkServer {
  url: string;
  /** Every request received, failed ones included, in arrival order. */
  received: Received[];
  /** Requests answered 2xx. */
  delivered(): Received[];
  /**
   * The 2xx deliveries, one per CloudEvent id (its first arrival kept): what the partner's system
   * sees after dropping duplicates by id, as at-least-once delivery (CONTRACT §8) asks of it. A
   * retry whose 204 came after the attempt's timeout is the same event again, not another one.
   */
  events(): Received[];
  /** Decides each reply; default 204. */
  reply: (r: Omit<Received, 'status'>, n: number) => SinkReply;
  waitFor(predicate: (delivered: Received[]) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** Requests in flight (arrived, not yet answered or cut), shared by the sinks given it. */
export interface InFlight {
  now: number;
  max: number;
}

/** A partner's webhook receiver on a free port; `inFlight` counts its open requests with other sinks'. */
export async function startSink(inFlight?: InFlight): Promise<SinkServer> {
  const received: Received[] = [];
  const hanging = new Set<http.ServerResponse>();
  const sink: SinkServer = {
    url: '',
    received,
    delivered: () => received.filter((r) => r.status >= 200 && r.status < 300),
    events: () => {
      const seen = new Set<string>();
      return sink.delivered().filter((r) => {
        if (seen.has(r.body.id)) return false;
        seen.add(r.body.id);
        return true;
      });
    },
    reply: () => 204,
    waitFor: async (predicate, timeoutMs = 15_000) => {
      await until(() => predicate(sink.delivered()), 'sink condition', timeoutMs).catch(() => {
        throw new Error(`sink: condition not met in ${timeoutMs} ms; received ${JSON.stringify(received.map((r) => [r.status, r.body.type, r.body.id]))}`);
      });
      return sink.delivered();
    },
    close: () => new Promise((resolve) => {
      for (const res of hanging) res.destroy();
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
  const server = http.createServer((req, res) => {
    if (inFlight) {
      inFlight.now++;
      inFlight.max = Math.max(inFlight.max, inFlight.now);
      res.once('close', () => { inFlight.now--; });
    }
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => { text += c; });
    req.on('end', () => {
      let body: Received['body'];
      try { body = JSON.parse(text) as Received['body']; } catch { body = { id: '', type: '', data: {} }; }
      const r = { path: req.url ?? '', headers: req.headers, body, atMs: Date.now() };
      const reply = sink.reply(r, received.length);
      if (reply === 'hang') {
        hanging.add(res);
        received.push({ ...r, status: 0 });
        return;
      }
      received.push({ ...r, status: reply });
      res.writeHead(reply).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return sink;
}
