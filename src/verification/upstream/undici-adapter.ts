import { STATUS_CODES } from 'node:http';
import { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import {
  AxiosAdapter, AxiosError, AxiosHeaders, AxiosResponse, CanceledError, InternalAxiosRequestConfig,
} from 'axios';
import { Pool } from 'undici';

/**
 * An axios adapter over one undici `Pool` (keep-alive connections to one origin). axios stays
 * the upstream client's interface (config, interceptors, transformResponse, AxiosError); only
 * the transport under it changes, because axios's own http adapter (follow-redirects, a
 * ClientRequest, stream plumbing, an EventEmitter per call) cost most of a cache miss's CPU
 * (docs/performance.md, "The miss path").
 *
 * What it keeps from axios's http adapter, for what callers rely on: every status resolves or
 * rejects through `validateStatus` (AxiosError ERR_BAD_REQUEST / ERR_BAD_RESPONSE with the
 * response); the body is handed over as a UTF-8 string (BOM stripped) for transformResponse to
 * parse; `maxContentLength` rejects with ERR_BAD_RESPONSE "maxContentLength size of N
 * exceeded"; an aborted `signal` rejects with a CanceledError (axios.isCancel); `timeout`
 * rejects with ECONNABORTED (ETIMEDOUT under transitional.clarifyTimeoutError); a transport
 * failure rejects with AxiosError.from(err), keeping the system's code (ECONNREFUSED...) and
 * the error as `cause`; gzip, deflate and br bodies are decoded as they stream in, and
 * `maxContentLength` holds for the decoded bytes as well as the bytes received (any other
 * Content-Encoding is refused). It never follows redirects
 * (a 3xx is an answer, as with maxRedirects 0), sends no Accept-Encoding or User-Agent of its
 * own (only the headers the config holds), and reads no HTTP_PROXY/HTTPS_PROXY: the upstreams
 * are reached directly (docs/decisions.md).
 */
export interface UndiciAdapter {
  adapter: AxiosAdapter;
  close(): Promise<void>;
  destroy(): Promise<void>;
}

export interface UndiciAdapterOptions {
  /** Keep-alive connections to the origin at most (axios's agent maxSockets). */
  connections: number;
}

export function undiciAdapter(baseUrl: string, opts: UndiciAdapterOptions): UndiciAdapter {
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const pool = new Pool(base.origin, { connections: opts.connections, pipelining: 1 });
  const adapter: AxiosAdapter = (config) => send(pool, base.origin, basePath, config);
  return { adapter, close: () => pool.close(), destroy: () => pool.destroy() };
}

/** The request's path on the pool's origin; an absolute URL to another origin is refused. */
function pathOf(origin: string, basePath: string, config: InternalAxiosRequestConfig): string {
  const url = config.url ?? '';
  let path: string;
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(url)) {
    const u = new URL(url);
    if (u.origin !== origin) throw new AxiosError(`this client only reaches ${origin}`, AxiosError.ERR_BAD_OPTION_VALUE, config);
    path = `${u.pathname}${u.search}`;
  } else {
    path = `${basePath}${url.startsWith('/') || url === '' ? '' : '/'}${url}`;
  }
  if (config.params) {
    const query = new URLSearchParams(config.params as Record<string, string>).toString();
    if (query) path += `${path.includes('?') ? '&' : '?'}${query}`;
  }
  return path || '/';
}

/**
 * The decoder of a Content-Encoding: a zlib stream, which inflates in the thread pool one
 * output chunk (16 KiB) at a time, so the running count in readBody stops a bomb within a chunk
 * of the limit and no single call on the event loop inflates more than that (CONTRACT §3).
 * undefined: identity. Any other coding is refused (the Error): its bytes could not be read anyway.
 */
function decoderOf(encoding: unknown): Transform | Error | undefined {
  switch (typeof encoding === 'string' ? encoding.trim().toLowerCase() : '') {
    case '':
    case 'identity':
      return undefined;
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return new Error('unsupported Content-Encoding');
  }
}

type BodyStream = NodeJS.ReadableStream & { destroy(): void };

/**
 * The whole body decoded, or `tooLarge()` as soon as either the bytes received or the bytes
 * decoded pass `limit` (-1: no limit). The limit holds after decoding: a 329-byte `br` body
 * that would inflate to 200 MB is stopped after `limit` bytes of output.
 */
function readBody(source: BodyStream, encoding: unknown, limit: number, tooLarge: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const decoder = decoderOf(encoding);
    if (decoder instanceof Error) {
      source.destroy();
      reject(decoder);
      return;
    }
    const out: BodyStream = decoder ?? source;
    const chunks: Buffer[] = [];
    let received = 0;
    let size = 0;
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      source.destroy();
      decoder?.destroy();
      reject(err);
    };
    if (decoder) {
      source.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (limit > -1 && received > limit) fail(tooLarge());
      });
      source.once('error', fail);
      source.pipe(decoder);
    }
    out.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (limit > -1 && size > limit) {
        fail(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    out.once('error', fail);
    out.once('end', () => {
      if (settled) return;
      settled = true;
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    });
  });
}

async function send(pool: Pool, origin: string, basePath: string, config: InternalAxiosRequestConfig): Promise<AxiosResponse> {
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  let signal = config.signal as AbortSignal | undefined;
  if (config.timeout && config.timeout > 0) {
    const own = new AbortController();
    timer = setTimeout(() => { timedOut = true; own.abort(); }, config.timeout);
    signal = signal ? AbortSignal.any([signal, own.signal]) : own.signal;
  }
  const request = { path: '' };
  try {
    request.path = pathOf(origin, basePath, config);
    const res = await pool.request({
      path: request.path,
      method: (config.method ?? 'get').toUpperCase(),
      headers: (config.headers as AxiosHeaders).toJSON() as Record<string, string>,
      body: (config.data as string | Buffer | undefined) ?? null,
      ...(signal ? { signal } : {}),
    });
    const raw = await readBody(res.body, res.headers['content-encoding'], config.maxContentLength ?? -1, () => (
      new AxiosError(`maxContentLength size of ${config.maxContentLength} exceeded`, AxiosError.ERR_BAD_RESPONSE, config, request)));
    let data: unknown = raw;
    if (config.responseType !== 'arraybuffer') {
      const text = raw.toString((config.responseEncoding as BufferEncoding | undefined) ?? 'utf8');
      data = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    }
    const response: AxiosResponse = {
      data, status: res.statusCode, statusText: STATUS_CODES[res.statusCode] ?? '',
      headers: new AxiosHeaders(res.headers as Record<string, string>), config, request,
    };
    const valid = config.validateStatus;
    if (valid && !valid(res.statusCode)) {
      throw new AxiosError(
        `Request failed with status code ${res.statusCode}`,
        res.statusCode >= 400 && res.statusCode < 500 ? AxiosError.ERR_BAD_REQUEST : AxiosError.ERR_BAD_RESPONSE,
        config, request, response,
      );
    }
    return response;
  } catch (err) {
    if (err instanceof AxiosError) throw err;
    if (config.signal?.aborted) throw new CanceledError(undefined, config, request);
    if (timedOut) {
      const message = config.timeoutErrorMessage ?? `timeout of ${config.timeout}ms exceeded`;
      throw new AxiosError(message, config.transitional?.clarifyTimeoutError ? AxiosError.ETIMEDOUT : AxiosError.ECONNABORTED, config, request);
    }
    throw AxiosError.from(err, (err as { code?: string }).code, config, request);
  } finally {
    clearTimeout(timer);
  }
}
