import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Fault, FaultState, isSystemName, parseFaultPatch, SYSTEMS, SystemName } from './faults';
import { parseSubscriber, SimSubscriber, SubscriberInput } from './subscriber';
import { syntheticSubscriber } from './synthetic';
import { isPlainObject } from '../kernel/plain-object';
import { instantOf } from '../kernel/rfc3339';

export interface SimulatorOptions {
  subscribers: SimSubscriber[];
  /** Numbers absent from the fixture get deterministic attributes instead of 404. */
  synthetic: boolean;
  /** Reference time for synthetic swap dates; defaults to creation time. */
  startedAt?: Date;
  /** Told of every swap an admin upsert makes (a new, later lastSimSwapAt), as SIM management reports them. */
  onSwap?: (msisdn: string) => void;
}

export interface Simulator {
  /** Resolves the base URL, e.g. http://127.0.0.1:54321; port 0 (the default) picks a free port. */
  listen(port?: number, host?: string): Promise<string>;
  /** Closes the server, every keep-alive socket and every pending latency timer. */
  close(): Promise<void>;
  /** Upstream calls received, faulted ones included, admin calls excluded. */
  calls(): Record<SystemName, number>;
  resetCalls(): void;
  upsert(s: SubscriberInput): void;
  setFault(system: SystemName, f: Partial<Fault>): Fault;
  resetFaults(): void;
}

const ADMIN_BODY_LIMIT = 64 * 1024;
const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * HLR under /hlr, SIM management under /sim and customer records under /crm, on bare
 * node:http because benchmarks drive it hard and a framework's per-request cost would show up
 * in the service's numbers.
 */
export function createSimulator(opts: SimulatorOptions): Simulator {
  const startedAt = opts.startedAt ?? new Date();
  const store = new Map<string, SimSubscriber>();
  for (const s of opts.subscribers) store.set(s.msisdn, parseSubscriber(s));
  const noteSwap = (before: SimSubscriber | undefined, after: SimSubscriber): void => {
    if (!opts.onSwap || after.lastSimSwapAt === null) return;
    if (before?.lastSimSwapAt != null && instantOf(before.lastSimSwapAt) >= instantOf(after.lastSimSwapAt)) return;
    opts.onSwap(after.msisdn);
  };
  const faults: Record<SystemName, FaultState> = { hlr: new FaultState(), sim: new FaultState(), crm: new FaultState() };
  const counts: Record<SystemName, number> = { hlr: 0, sim: 0, crm: 0 };
  const timers = new Set<NodeJS.Timeout>();

  const lookup = (msisdn: string, system: SystemName): SimSubscriber | null =>
    store.get(msisdn) ?? (opts.synthetic ? syntheticSubscriber(msisdn, startedAt, system === 'crm') : null);

  function upstream(system: SystemName, msisdn: string, req: IncomingMessage, res: ServerResponse): void {
    counts[system]++;
    const fault = faults[system];
    if (fault.down) {
      req.socket.destroy();
      return;
    }
    const fails = fault.nextCallFails();
    // Read when the call arrives, answered after the latency: as a real system's answer, it can
    // be overtaken by a change (a swap) while it travels back.
    const found = lookup(msisdn, system);
    // Customer records hold no record for a subscriber without one: the same 404 as an unknown number.
    const s = system === 'crm' && found?.identity === undefined ? null : found;
    const answer = (): void => {
      if (fails) return send(res, 503, { error: 'injected fault' });
      // The contract's "not a subscriber": JSON naming the number asked, so that a client can
      // tell it from any other 404 (a wrong path, a proxy's page): docs/decisions.md.
      if (!s) return send(res, 404, { error: 'not_found', msisdn });
      send(res, 200, answerBody(system, s));
    };
    if (fault.latencyMs === 0) return answer();
    const timer = setTimeout(() => {
      timers.delete(timer);
      answer();
    }, fault.latencyMs);
    timers.add(timer);
  }

  async function admin(method: string, parts: string[], req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [resource, id] = [parts[2], parts[3]];
    if (parts.length === 4 && resource === 'subscribers' && method === 'PUT' && id) {
      const body = await readJson(req, res);
      if (body === undefined) return;
      if (!isPlainObject(body)) {
        return send(res, 400, { error: 'subscriber must be a JSON object' });
      }
      // The path names the record; a msisdn in the body is optional and overridden.
      const s = tryParse(res, () => parseSubscriber({ ...body, msisdn: id }, { now: new Date() }));
      if (!s) return;
      noteSwap(store.get(s.msisdn), s);
      store.set(s.msisdn, s);
      return send(res, 200, s);
    }
    if (parts.length === 4 && resource === 'faults' && method === 'PUT' && id && isSystemName(id)) {
      const body = await readJson(req, res);
      if (body === undefined) return;
      const patch = tryParse(res, () => parseFaultPatch(body));
      if (!patch) return;
      return send(res, 200, faults[id].apply(patch));
    }
    if (parts.length === 3 && resource === 'faults' && method === 'DELETE') {
      resetFaults();
      return send(res, 204);
    }
    if (parts.length === 3 && resource === 'calls' && method === 'GET') return send(res, 200, { ...counts });
    if (parts.length === 3 && resource === 'calls' && method === 'DELETE') {
      resetCalls();
      return send(res, 204);
    }
    send(res, 404, { error: 'not found' });
  }

  function route(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const parts = (q === -1 ? url : url.slice(0, q)).split('/');
    const method = req.method ?? 'GET';
    // parts[0] is the empty string before the leading slash.
    const msisdn = parts[3] ? safeDecode(parts[3]) : null;
    if (method === 'GET' && msisdn !== null && parts[2] === 'subscribers') {
      if (parts[1] === 'hlr' && parts.length === 4) return upstream('hlr', msisdn, req, res);
      if (parts[1] === 'sim' && parts.length === 5 && parts[4] === 'sim') return upstream('sim', msisdn, req, res);
      if (parts[1] === 'crm' && parts.length === 5 && parts[4] === 'identity') return upstream('crm', msisdn, req, res);
    }
    if (parts[1] === '__admin') {
      admin(method, parts.map(safeDecode).map((p) => p ?? ''), req, res).catch(() => send(res, 500, { error: 'internal error' }));
      return;
    }
    send(res, 404, { error: 'not found' });
  }

  const server = createServer((req, res) => {
    try {
      route(req, res);
    } catch {
      send(res, 500, { error: 'internal error' });
    }
  });
  // Longer than typical client idle timeouts, so a client never reuses a socket we just closed.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  function resetFaults(): void {
    for (const f of Object.values(faults)) f.reset();
  }
  function resetCalls(): void {
    for (const system of SYSTEMS) counts[system] = 0;
  }

  return {
    listen(port = 0, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const addr = server.address() as AddressInfo;
          const h = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
          resolve(`http://${h}:${addr.port}`);
        });
      });
    },
    close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      if (!server.listening) return Promise.resolve();
      return new Promise((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
    calls: () => ({ ...counts }),
    resetCalls,
    upsert(s) {
      const clean = parseSubscriber(s, { now: new Date() });
      noteSwap(store.get(clean.msisdn), clean);
      store.set(clean.msisdn, clean);
    },
    setFault: (system, f) => faults[system].apply(f),
    resetFaults,
  };
}

/** A found subscriber as each system tells it; the HLR leaves out the optional facts it does not know. */
function answerBody(system: SystemName, s: SimSubscriber): Record<string, unknown> {
  switch (system) {
    case 'hlr':
      return {
        msisdn: s.msisdn, status: s.status, paymentType: s.paymentType, activatedAt: s.activatedAt,
        ...(s.deviceFirstSeenAt === undefined ? {} : { deviceFirstSeenAt: s.deviceFirstSeenAt }),
        ...(s.deviceChangedAt === undefined ? {} : { deviceChangedAt: s.deviceChangedAt }),
        ...(s.callForwarding === undefined ? {} : { callForwarding: s.callForwarding }),
        ...(s.contentLock === undefined ? {} : { contentLock: s.contentLock }),
        ...(s.parentalControl === undefined ? {} : { parentalControl: s.parentalControl }),
      };
    case 'sim':
      return { msisdn: s.msisdn, iccid: s.iccid, lastSimSwapAt: s.lastSimSwapAt, simActivatedAt: s.simActivatedAt };
    case 'crm':
      // msisdn as in the other two systems' bodies, so a client can tell the record is the one asked for.
      return { msisdn: s.msisdn, ...s.identity };
    default: {
      const never: never = system;
      throw new Error(`unknown system ${String(never)}`);
    }
  }
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (res.headersSent || res.destroyed) return;
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { ...JSON_HEADERS, 'content-length': Buffer.byteLength(text) }).end(text);
}

function tryParse<T>(res: ServerResponse, parse: () => T): T | undefined {
  try {
    return parse();
  } catch (err) {
    send(res, 400, { error: (err as Error).message });
    return undefined;
  }
}

function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/**
 * Reads an admin body as JSON; on failure answers 400/413 itself and returns undefined.
 * An oversized body is drained rather than cut off, so the client sees the 413 instead
 * of a reset connection.
 */
function readJson(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= ADMIN_BODY_LIMIT) chunks.push(chunk);
    });
    req.on('error', () => resolve(undefined));
    req.on('end', () => {
      if (size > ADMIN_BODY_LIMIT) {
        send(res, 413, { error: `body over ${ADMIN_BODY_LIMIT} bytes` });
        return resolve(undefined);
      }
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        send(res, 400, { error: 'body must be valid JSON' });
        resolve(undefined);
      }
    });
  });
}
