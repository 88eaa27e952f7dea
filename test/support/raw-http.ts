import { Socket, connect } from 'node:net';

/**
 * HTTP/1.1 spoken by hand over a TCP socket, for what fetch refuses to send: invalid UTF-8,
 * oversized headers, bytes trickled slower than the server's timeouts, malformed requests.
 */

export interface RawReply {
  /** Undefined when the server closed (or the wait ended) without a status line. */
  status?: number;
  headers: Map<string, string>;
  text: string;
  body: unknown;
  /** True when the server closed the connection; false when we gave up waiting. */
  closed: boolean;
  /** A socket error (ECONNRESET, EPIPE) instead of an orderly close. */
  error?: string;
  elapsedMs: number;
}

/** Header access shaped like fetch's Headers.get, for the OpenAPI validator. */
export function headerSource(r: RawReply): { get(name: string): string | null } {
  return { get: (name) => r.headers.get(name.toLowerCase()) ?? null };
}

export function parseResponse(raw: Buffer): Pick<RawReply, 'status' | 'headers' | 'text' | 'body'> {
  const headers = new Map<string, string>();
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return { headers, text: '', body: undefined };
  const lines = raw.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]);
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  let bodyBytes = raw.subarray(end + 4);
  if (headers.get('transfer-encoding')?.toLowerCase() === 'chunked') bodyBytes = dechunk(bodyBytes);
  const length = headers.get('content-length');
  if (length !== undefined) bodyBytes = bodyBytes.subarray(0, Number(length));
  const text = bodyBytes.toString('utf8');
  let body: unknown;
  try { body = JSON.parse(text); } catch { body = undefined; }
  return { status: m ? Number(m[1]) : undefined, headers, text, body };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

interface Exchange {
  socket: Socket;
  done: Promise<RawReply>;
}

/** Opens a connection and collects the answer; `take` may hold back or rewrite what arrives (interim answers). */
function open(port: number, waitMs: number, take: (chunk: Buffer) => Buffer = (c) => c): Exchange {
  const started = Date.now();
  const socket = connect({ port, host: '127.0.0.1' });
  const chunks: Buffer[] = [];
  const done = new Promise<RawReply>((resolve) => {
    let error: string | undefined;
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseResponse(Buffer.concat(chunks)), closed, error, elapsedMs: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (c: Buffer) => chunks.push(take(c)));
    socket.on('error', (e: NodeJS.ErrnoException) => { error = e.code ?? e.message; });
    socket.on('close', () => finish(true));
  });
  return { socket, done };
}

/**
 * Sends bytes as one request and waits for the server to answer and close (the request
 * should carry `Connection: close`), at most waitMs. The socket is not half-closed: Node's
 * server aborts a request whose client sent FIN before the answer was written.
 */
export async function rawRequest(port: number, request: Buffer | string, waitMs = 5000): Promise<RawReply> {
  const x = open(port, waitMs);
  x.socket.write(request);
  return x.done;
}

/** Builds a request from parts; the body may be bytes that are not UTF-8. */
export function buildRequest(opts: {
  method?: string; target: string; headers?: [string, string][]; body?: Buffer | string; contentLength?: number;
}): Buffer {
  const body = opts.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(opts.body, 'utf8');
  // Content-Length goes before the caller's headers: Node keeps only the first 1,000 headers.
  const headers: [string, string][] = [['Host', '127.0.0.1'], ['Connection', 'close']];
  if (opts.body !== undefined || opts.contentLength !== undefined) headers.push(['Content-Length', String(opts.contentLength ?? body.length)]);
  headers.push(...(opts.headers ?? []));
  const head = `${opts.method ?? 'POST'} ${opts.target} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/**
 * Slowloris: sends `head`, then one byte of `rest` every intervalMs, and reports when the
 * server gave up on us (or waitMs passed). Stops writing as soon as the socket closes.
 */
export async function trickle(port: number, head: Buffer | string, rest: Buffer | string, intervalMs: number, waitMs: number, onHeadSent?: () => void): Promise<RawReply & { bytesTrickled: number }> {
  const x = open(port, waitMs);
  const tail = Buffer.isBuffer(rest) ? rest : Buffer.from(rest, 'latin1');
  let sent = 0;
  // onHeadSent: once connected and the head is on the wire (a test waits for its slow clients to be in place).
  x.socket.once('connect', () => onHeadSent?.());
  x.socket.write(head);
  const ticker = setInterval(() => {
    if (x.socket.destroyed || sent >= tail.length) return;
    x.socket.write(tail.subarray(sent, sent + 1));
    sent += 1;
  }, intervalMs);
  const reply = await x.done;
  clearInterval(ticker);
  return { ...reply, bytesTrickled: sent };
}

/**
 * `Expect: 100-continue` spoken as a careful client: sends the head, and the body only once an
 * interim `100 Continue` arrived. Reports whether it did, and the final answer (at most waitMs).
 */
export async function expectContinue(port: number, head: Buffer | string, body: Buffer | string, waitMs = 5000): Promise<RawReply & { continued: boolean }> {
  let pending: Buffer | undefined = Buffer.alloc(0);
  let continued = false;
  // Until the first answer's head is complete it is held back: a 100 Continue is dropped (and
  // the body sent), any other answer is passed on whole.
  const x: Exchange = open(port, waitMs, (c) => {
    if (pending === undefined) return c;
    pending = Buffer.concat([pending, c]);
    const end = pending.indexOf('\r\n\r\n');
    if (end < 0) return Buffer.alloc(0);
    const first = pending;
    pending = undefined;
    if (!/^HTTP\/1\.1 100 /.test(first.subarray(0, end).toString('latin1'))) return first;
    continued = true;
    x.socket.write(body);
    return first.subarray(end + 4);
  });
  x.socket.write(head);
  return { ...(await x.done), continued };
}
