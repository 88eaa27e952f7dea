import { connect, createServer } from 'node:net';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A port the OS says is free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** True when something accepts a TCP connection on 127.0.0.1:port. */
export function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
}

/** Waits until 127.0.0.1:port accepts connections. */
export async function waitForPort(port: number, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await canConnect(port))) {
    if (Date.now() > deadline) throw new Error(`${what} did not listen on port ${port} within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/**
 * Polls a JSON endpoint until `accept` says yes to its body; resolves with that body, or with
 * the last one seen (undefined when none was readable) once timeoutMs is up and `orThrow` is off.
 */
export async function waitForJson<T>(url: string, accept: (body: T | undefined, status: number) => boolean,
  opts: { timeoutMs?: number; intervalMs?: number; orThrow?: string } = {}): Promise<T | undefined> {
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  for (;;) {
    let body: T | undefined;
    let status = 0;
    try {
      const res = await fetch(url);
      status = res.status;
      body = (await res.json().catch(() => undefined)) as T | undefined;
    } catch {
      // not listening yet
    }
    if (accept(body, status)) return body;
    if (Date.now() > deadline) {
      if (opts.orThrow) throw new Error(`${opts.orThrow} (${url} last answered ${status || 'nothing'}${body === undefined ? '' : ` ${JSON.stringify(body)}`})`);
      return body;
    }
    await sleep(opts.intervalMs ?? 100);
  }
}

/** Polls url until it answers 200. */
export async function waitForHttp(url: string, timeoutMs = 20_000): Promise<void> {
  await waitForJson(url, (_b, status) => status === 200, { timeoutMs, orThrow: `${url} did not answer 200 within ${timeoutMs} ms` });
}

/** Polls the service's /readyz until its state store reports `store`; resolves with the last store seen. */
export async function waitForStore(baseUrl: string, store: string, opts: { timeoutMs?: number; orThrow?: boolean } = {}): Promise<string | undefined> {
  const body = await waitForJson<{ store?: string }>(`${baseUrl}/readyz`, (b) => b?.store === store, {
    timeoutMs: opts.timeoutMs ?? 15_000, intervalMs: 25, ...(opts.orThrow ? { orThrow: `the state store at ${baseUrl} did not reach ${store}` } : {}),
  });
  return body?.store;
}
