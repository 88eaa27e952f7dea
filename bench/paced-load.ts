import http from 'node:http';
import { RequestFactory } from './request-factory';

export interface PacedOptions {
  url: string;
  ratePerS: number;
  durationS: number;
  /** Keep-alive sockets available; a request waits for one when all are busy (and that wait counts). */
  maxSockets: number;
  expectStatuses: number[];
}

export interface PacedOutcome {
  sent: number;
  durationS: number;
  statusCounts: Record<string, number>;
  errors: number;
  /** Microseconds from each request's scheduled start to its last response byte, expected statuses only. */
  latenciesUs: Float64Array;
  /** How late the load generator itself sent requests (its timer tick), p99 in ms: part of every latency above. */
  sendLagP99Ms: number;
  /** The same latencies by route and status ("/eai/verify_customer/query/kyc 401"): which kind of request the tail is. */
  byRoute: Record<string, RouteLatency>;
}

export interface RouteLatency {
  count: number;
  p50Ms: number;
  p99Ms: number;
}

/** p50 and p99 of each route's latencies (microseconds in, milliseconds out). */
function summariseRoutes(byRoute: Map<string, number[]>): Record<string, RouteLatency> {
  const out: Record<string, RouteLatency> = {};
  for (const [route, us] of byRoute) {
    const sorted = Float64Array.from(us).sort();
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] / 1000;
    out[route] = { count: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99) };
  }
  return out;
}

/**
 * An open-loop load: requests start on a fixed schedule (rate per second, evenly spaced),
 * whether or not earlier ones have been answered, and latency is measured from the scheduled
 * start, so a stall is not hidden by the client waiting for it (no coordinated omission).
 * autocannon's rate option sends each connection's quota as fast as it can at the top of every
 * second and then pauses: at "half load" the server would be measured at full load, in bursts.
 */
export function runPaced(opts: PacedOptions, factory: RequestFactory): Promise<PacedOutcome> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.maxSockets });
  const target = new URL(opts.url);
  const statusCounts: Record<string, number> = {};
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  let sent = 0;
  let done = 0;
  let errors = 0;
  const byRoute = new Map<string, number[]>();
  const lags = new Float64Array(Math.round(opts.ratePerS * opts.durationS) + 1);
  const intervalNs = 1e9 / opts.ratePerS;
  const total = Math.round(opts.ratePerS * opts.durationS);
  const start = process.hrtime.bigint();

  return new Promise((resolve) => {
    const finish = () => {
      if (done < total) return;
      clearInterval(ticker);
      agent.destroy();
      const sortedLags = lags.subarray(0, sent).sort();
      const sendLagP99Ms = sent === 0 ? 0 : sortedLags[Math.floor(0.99 * (sent - 1))] / 1e6;
      resolve({ sent, durationS: Number(process.hrtime.bigint() - start) / 1e9, statusCounts, errors, latenciesUs: latencies.subarray(0, n), sendLagP99Ms, byRoute: summariseRoutes(byRoute) });
    };
    const record = (status: number, scheduledNs: bigint, path: string) => {
      statusCounts[status] = (statusCounts[status] ?? 0) + 1;
      if (!opts.expectStatuses.includes(status)) return;
      if (n === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      const us = Number(process.hrtime.bigint() - scheduledNs) / 1000;
      latencies[n++] = us;
      const route = `${path.split('?', 1)[0]} ${status}`;
      const list = byRoute.get(route);
      if (list) list.push(us);
      else byRoute.set(route, [us]);
    };
    const send = (scheduledNs: bigint) => {
      const { path, body, headers } = factory.next();
      const req = http.request({
        host: target.hostname, port: target.port, path, method: 'POST', agent,
        headers: { 'content-type': 'application/json', ...headers, 'content-length': Buffer.byteLength(body) },
      }, (res) => {
        res.resume();
        res.on('end', () => {
          record(res.statusCode ?? 0, scheduledNs, path);
          done++;
          finish();
        });
      });
      req.on('error', () => {
        errors++;
        done++;
        finish();
      });
      req.end(body);
    };
    // A 1 ms tick sends every request whose time has come, each stamped with its own schedule.
    const ticker = setInterval(() => {
      const elapsedNs = Number(process.hrtime.bigint() - start);
      const due = Math.min(total, Math.floor(elapsedNs / intervalNs) + 1);
      while (sent < due) {
        const offsetNs = Math.round(sent * intervalNs);
        lags[sent] = elapsedNs - offsetNs;
        send(start + BigInt(offsetNs));
        sent++;
      }
    }, 1);
  });
}
