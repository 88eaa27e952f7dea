import { until } from './until';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Readiness {
  at: number;
  httpStatus: number;
  status: string;
  store: string;
  upstreams: Record<string, string>;
}

export interface ReadyzWatch {
  readonly seen: Readiness[];
  /** Resolves with the first reading (past or future) that matches, or throws after timeoutMs. */
  waitFor(what: string, match: (r: Readiness) => boolean, timeoutMs?: number, since?: number): Promise<Readiness>;
  /** Distinct values of one field, in the order they were first seen. */
  distinct(field: (r: Readiness) => string): string[];
  stop(): void;
}

/** Polls GET /readyz every intervalMs, so a test sees the breaker and store states the load went through. */
export function watchReadyz(baseUrl: string, intervalMs = 25): ReadyzWatch {
  const seen: Readiness[] = [];
  let running = true;
  const poll = async () => {
    while (running) {
      try {
        const res = await fetch(`${baseUrl}/readyz`);
        const body = (await res.json()) as Omit<Readiness, 'at' | 'httpStatus'>;
        seen.push({ at: Date.now(), httpStatus: res.status, status: body.status, store: body.store, upstreams: body.upstreams ?? {} });
      } catch {
        // The process is gone or going: nothing to read.
      }
      await sleep(intervalMs);
    }
  };
  void poll();
  return {
    seen,
    async waitFor(what, match, timeoutMs = 5000, since = 0) {
      let hit: Readiness | undefined;
      await until(() => (hit = seen.find((r) => r.at >= since && match(r))) !== undefined, what, timeoutMs, 10).catch(() => {
        throw new Error(`/readyz never showed ${what} within ${timeoutMs} ms (last: ${JSON.stringify(seen[seen.length - 1])})`);
      });
      return hit!;
    },
    distinct(field) {
      const out: string[] = [];
      for (const r of seen) {
        const v = field(r);
        if (out[out.length - 1] !== v) out.push(v);
      }
      return out;
    },
    stop() {
      running = false;
    },
  };
}

export type { ServiceProcess } from './service-process';
export { startServiceProcess } from './service-process';
