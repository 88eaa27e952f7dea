import http from 'node:http';
import { Socket, connect } from 'node:net';
import { defaultFixturesPath, loadFixtures } from '../../src/simulator/fixtures';
import { Simulator, createSimulator } from '../../src/simulator/simulator';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { DEMO, signedQuery, txnId } from '../support/signing';
import { until } from '../support/until';

/*
 * Graceful shutdown, against the built service as a real process (node dist/src/main.js):
 * - after SIGTERM every response says `Connection: close`, and no request that reached the
 *   server goes unanswered, on keep-alive connections, pipelined ones and under load;
 * - /readyz answers 503 at once while the service keeps accepting and serving for
 *   SHUTDOWN_READINESS_DELAY_MS; then it drains and exits 0.
 */

jest.setTimeout(60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const KYC = '/eai/verify_customer/query/kyc';
const kycBody = () => JSON.stringify({ txn_id: txnId('s'), msisdn: '255712000001' });

/** Every KYC goes to the HLR (no cache), which answers after latencyMs. */
async function slowSimulator(latencyMs: number): Promise<{ sim: Simulator; env: Record<string, string> }> {
  const sim = createSimulator({ subscribers: loadFixtures(defaultFixturesPath()), synthetic: false });
  const base = await sim.listen(0);
  sim.setFault('hlr', { latencyMs });
  sim.setFault('sim', { latencyMs });
  return { sim, env: { HLR_URL: `${base}/hlr`, SIM_URL: `${base}/sim`, KYC_CACHE_TTL_S: '0', KYC_STALE_S: '0', LOG_LEVEL: 'info' } };
}

async function stopped(svc: ServiceProcess): Promise<void> {
  if (svc.proc.exitCode === null && svc.proc.signalCode === null) {
    svc.proc.kill('SIGKILL');
    await svc.exited;
  }
}

/** A keep-alive HTTP/1.1 request (no Connection header) for a raw socket. */
/** txn_ids the service has claimed (each request here sends a new one): requests it has read. */
async function newTxns(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^verify_txn_total\{outcome="new"\} (\d+)/m.exec(text)?.[1] ?? 0);
}

function keepAliveRequest(): string {
  const body = kycBody();
  return `POST ${KYC}?${signedQuery(DEMO)} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

interface Parsed { status: number; connection: string | undefined; body: string }

/** Splits what a server wrote on one connection into its responses (all carry Content-Length). */
function responsesOf(data: Buffer): Parsed[] {
  const out: Parsed[] = [];
  let at = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', at);
    if (end < 0) return out;
    const lines = data.subarray(at, end).toString('latin1').split('\r\n');
    const headers = new Map(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers.get('content-length') ?? 0);
    out.push({ status: Number(lines[0]?.split(' ')[1]), connection: headers.get('connection'), body: data.subarray(end + 4, end + 4 + length).toString('utf8') });
    at = end + 4 + length;
  }
}

/** A raw connection that collects everything the server writes until it closes. */
function rawConnection(port: number): { socket: Socket; closed: Promise<{ data: Buffer; error?: string }> } {
  const socket = connect({ port, host: '127.0.0.1' });
  const chunks: Buffer[] = [];
  let error: string | undefined;
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.on('error', (e: NodeJS.ErrnoException) => { error = e.code ?? e.message; });
  const closed = new Promise<{ data: Buffer; error?: string }>((resolve) => socket.on('close', () => resolve({ data: Buffer.concat(chunks), error })));
  return { socket, closed };
}

describe('SIGTERM keeps every request answered, keep-alive connections included', () => {
  let sim: Simulator;
  let simEnv: Record<string, string>;
  beforeAll(async () => ({ sim, env: simEnv } = await slowSimulator(1000)));
  afterAll(() => sim.close());

  it('when the signal comes, then responses in flight say Connection: close, and pipelined and newly connected requests are answered in full', async () => {
    const svc = await startServiceProcess({ ...simEnv, SHUTDOWN_READINESS_DELAY_MS: '0' });
    try {
      const port = Number(new URL(svc.url).port);
      const single = Array.from({ length: 8 }, () => rawConnection(port));
      const pipelined = rawConnection(port);
      const latePipelined = rawConnection(port);
      const quiet = rawConnection(port); // connected before the signal, its request written after it
      await Promise.all([...single, pipelined, latePipelined, quiet].map((c) => new Promise((r) => c.socket.once('connect', r))));
      for (const c of single) c.socket.write(keepAliveRequest());
      pipelined.socket.write(keepAliveRequest() + keepAliveRequest()); // one write: both parsed before any answer
      latePipelined.socket.write(keepAliveRequest());
      // Read by the service before the signal: the ten first requests have claimed their txn_ids.
      await until(async () => (await newTxns(svc.url)) >= 10, 'the ten first requests admitted', 10_000);
      svc.proc.kill('SIGTERM');
      await until(() => svc.count(/"msg":"shutting down"/) > 0, 'the signal handled', 10_000);
      latePipelined.socket.write(keepAliveRequest()); // pipelined behind an answer not yet written, after the signal
      await sleep(250); // several sweeps of idle connections later
      quiet.socket.write(keepAliveRequest());

      for (const c of single) {
        const { data, error } = await c.closed;
        const answers = responsesOf(data);
        expect({ error, answers: answers.map((a) => `${a.status} ${a.connection}`) }).toEqual({ error: undefined, answers: ['200 close'] });
      }
      const { data, error } = await pipelined.closed;
      // The first answer keeps the connection open, since the second request is already read on it.
      expect({ error, answers: responsesOf(data).map((a) => `${a.status} ${a.connection}`) }).toEqual({ error: undefined, answers: ['200 keep-alive', '200 close'] });
      const q = await quiet.closed;
      expect({ error: q.error, answers: responsesOf(q.data).map((a) => `${a.status} ${a.connection}`) }).toEqual({ error: undefined, answers: ['200 close'] });
      const late = await latePipelined.closed;
      expect({ error: late.error, answers: responsesOf(late.data).map((a) => `${a.status} ${a.connection}`) }).toEqual({ error: undefined, answers: ['200 keep-alive', '200 close'] });
      expect(await svc.exited).toBe(0);
    } finally {
      await stopped(svc);
    }
  });

  it('when the signal comes under load on keep-alive connections, then every request sent is answered or refused at connect, never dropped', async () => {
    const delayMs = 1000;
    const svc = await startServiceProcess({ ...simEnv, SHUTDOWN_READINESS_DELAY_MS: String(delayMs) });
    sim.setFault('hlr', { latencyMs: 100 });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    interface Outcome { id: number; sentAt: number; endedAt: number; status?: number; connection?: string; error?: string; reused: boolean }
    const outcomes: Outcome[] = [];
    // The requests sent and not yet ended: a snapshot of them at the signal is what was in flight.
    const pending = new Set<number>();
    let sent = 0;
    let running = true;
    const target = new URL(svc.url);
    const one = () => new Promise<Outcome>((done) => {
      const body = kycBody();
      const sentAt = Date.now();
      const id = sent++;
      pending.add(id);
      const resolve = (o: Omit<Outcome, 'id'>) => { pending.delete(id); done({ id, ...o }); };
      const req = http.request({
        agent, host: target.hostname, port: target.port, method: 'POST', path: `${KYC}?${signedQuery(DEMO)}`,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      }, (res) => {
        res.resume();
        res.on('end', () => resolve({ sentAt, endedAt: Date.now(), status: res.statusCode, connection: res.headers.connection, reused: req.reusedSocket }));
        res.on('error', (e: NodeJS.ErrnoException) => resolve({ sentAt, endedAt: Date.now(), error: e.code ?? e.message, reused: req.reusedSocket }));
      });
      req.setTimeout(10_000, () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
      req.on('error', (e: NodeJS.ErrnoException) => resolve({ sentAt, endedAt: Date.now(), error: e.code ?? e.message, reused: req.reusedSocket }));
      req.end(body);
    });
    // 16 closed-loop clients: every pooled connection carries a request most of the time.
    const workers = Array.from({ length: 16 }, async () => {
      while (running) {
        const o = await one();
        outcomes.push(o);
        if (o.error) await sleep(20);
      }
    });
    try {
      // Load first: every pooled connection has carried requests (keep-alive) before the signal.
      // The signal then comes while most connections carry a request: the HLR answers a batch at
      // once (one lookup for the number), so between batches few are pending; wait for a full one.
      await until(() => outcomes.length >= 48 && pending.size >= 12, 'three requests per connection answered, and 12 in flight, before the signal', 10_000, 1);
      const atSignal = new Set(pending);
      const termAt = Date.now();
      svc.proc.kill('SIGTERM');
      const exitCode = await svc.exited;
      const exitedAt = Date.now();
      await until(() => outcomes.some((o) => o.sentAt >= exitedAt), 'a request sent after the exit ended', 10_000);
      running = false;
      await Promise.all(workers);

      // When the service handled the signal (its own log line): a busy machine may take a while.
      const handledAt = Date.parse(/"time":"([^"]+)"[^\n]*"msg":"shutting down"/.exec(svc.output())?.[1] ?? '');
      const errors = outcomes.filter((o) => o.error !== undefined);
      const inFlight = outcomes.filter((o) => atSignal.has(o.id));
      // Written after the signal: anything sent after the service handled it, and what was still in flight 50 ms after that.
      const afterSignal = outcomes.filter((o) => o.status !== undefined && (o.sentAt >= handledAt || o.endedAt > handledAt + 50));
      const during = outcomes.filter((o) => o.sentAt >= termAt && o.status === 200);
      expect(exitCode).toBe(0);
      expect(exitedAt - termAt).toBeGreaterThanOrEqual(delayMs);
      expect(inFlight.length).toBe(atSignal.size); // every request in flight at the signal ended, and is judged next
      expect(inFlight.filter((o) => o.status !== 200).map((o) => `${o.status ?? o.error} +${o.endedAt - termAt} ms`)).toEqual([]);
      expect(during.length).toBeGreaterThan(16); // the delay kept serving, on new connections too
      expect(afterSignal.filter((o) => o.connection !== 'close').map((o) => `${o.status} ${o.connection} +${o.endedAt - termAt} ms`)).toEqual([]);
      // The only failures allowed are connections the service never accepted, so it never read
      // their request: refused once the listener closed, or reset by the kernel because the
      // handshake completed in the instant the listener closed (a new connection, never a reused one).
      const listenerClosedAt = Date.parse(/"time":"([^"]+)"[^\n]*closing the listener/.exec(svc.output())?.[1] ?? '');
      expect(listenerClosedAt - handledAt).toBeGreaterThanOrEqual(delayMs);
      const notAccepted = (o: Outcome) => o.error === 'ECONNREFUSED' || (o.error === 'ECONNRESET' && !o.reused && o.endedAt >= listenerClosedAt);
      expect(errors.filter((o) => !notAccepted(o)).map((o) => `${o.error} reused=${o.reused} +${o.endedAt - termAt} ms`)).toEqual([]);
      expect(errors.filter((o) => o.error === 'ECONNRESET').length).toBeLessThanOrEqual(16);
      expect(errors.filter((o) => o.endedAt < listenerClosedAt).map((o) => `${o.error} +${o.endedAt - termAt} ms`)).toEqual([]);
      expect(outcomes.filter((o) => o.status !== undefined && o.status !== 200)).toEqual([]);
      // The service's own count: every request it read was answered, and the answer arrived.
      expect(svc.count(/"msg":"request aborted"/)).toBe(0);
      expect(svc.count(/^(?=.*"msg":"request")(?=.*"path":"\/eai\/verify_customer\/query\/kyc")/)).toBe(outcomes.filter((o) => o.status !== undefined).length);
    } finally {
      running = false;
      agent.destroy();
      sim.setFault('hlr', { latencyMs: 1000 });
      await stopped(svc);
    }
  });
});

describe('SIGTERM: not ready first (so the balancer stops sending), then drain', () => {
  const readyz = async (url: string) => {
    const res = await fetch(`${url}/readyz`);
    return { status: res.status, body: (await res.json()) as { status: string } };
  };
  const outcome = (p: Promise<Response>) => p.then((r) => r.status, (err: Error) => (err.cause as NodeJS.ErrnoException | undefined)?.code ?? err.message);

  it('when the signal comes, then /readyz is 503 shutting_down at once, /healthz and the partner routes still answer during the delay, then exit 0', async () => {
    const delayMs = 1500;
    const svc = await startServiceProcess({ SHUTDOWN_READINESS_DELAY_MS: String(delayMs), LOG_LEVEL: 'info' });
    try {
      expect(await readyz(svc.url)).toMatchObject({ status: 200, body: { status: 'ready' } });
      // A keep-alive connection answered before the signal, used again after it.
      const idle = rawConnection(Number(new URL(svc.url).port));
      const firstAnswer = new Promise<void>((resolve) => idle.socket.on('data', () => resolve()));
      idle.socket.write(keepAliveRequest());
      await firstAnswer;
      await sleep(50);
      const termAt = Date.now();
      svc.proc.kill('SIGTERM');
      await until(() => svc.count(/"msg":"shutting down"/) > 0, 'the signal handled', 10_000);
      idle.socket.write(keepAliveRequest());
      const reused = await idle.closed;
      expect({ error: reused.error, answers: responsesOf(reused.data).map((a) => `${a.status} ${a.connection}`) })
        .toEqual({ error: undefined, answers: ['200 keep-alive', '200 close'] });
      expect(await readyz(svc.url)).toMatchObject({ status: 503, body: { status: 'shutting_down' } });
      expect(await outcome(fetch(`${svc.url}/healthz`))).toBe(200);
      const kyc = await fetch(`${svc.url}${KYC}?${signedQuery(DEMO)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: kycBody() });
      expect(kyc.status).toBe(200);
      expect(kyc.headers.get('connection')).toBe('close');
      const gql = await fetch(`${svc.url}/graphql?${signedQuery(DEMO)}`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ kyc(msisdn: "255712000001") { isValid } }' }),
      });
      expect(gql.status).toBe(200);
      // Polled through the delay rather than slept through: /readyz answers 503 all along, and
      // still late in it (the service still accepting).
      const lateInDelay = termAt + delayMs - 300;
      await until(async () => {
        expect((await readyz(svc.url)).status).toBe(503);
        return Date.now() >= lateInDelay;
      }, 'late in the readiness delay', 10_000, 50);
      expect(Date.now() - termAt).toBeLessThan(delayMs);

      expect(await svc.exited).toBe(0);
      expect(Date.now() - termAt).toBeGreaterThanOrEqual(delayMs);
      expect(await outcome(fetch(`${svc.url}/healthz`))).toBe('ECONNREFUSED');
      expect(svc.output()).toMatch(/"msg":"stopped"/);
    } finally {
      await stopped(svc);
    }
  });

  it('when a second signal comes during the delay, then the rest of it is skipped', async () => {
    const svc = await startServiceProcess({ SHUTDOWN_READINESS_DELAY_MS: '30000', LOG_LEVEL: 'info' });
    try {
      svc.proc.kill('SIGTERM');
      await until(async () => (await readyz(svc.url)).status === 503, 'not ready after the first signal', 5000);
      expect((await readyz(svc.url)).status).toBe(503);
      const secondAt = Date.now();
      svc.proc.kill('SIGINT');
      expect(await svc.exited).toBe(0);
      expect(Date.now() - secondAt).toBeLessThan(3000);
    } finally {
      await stopped(svc);
    }
  });
});
