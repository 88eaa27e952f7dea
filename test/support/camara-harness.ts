import { Harness, HarnessOptions, startHarness } from './harness';

/** A CAMARA reply: the body stays unknown until a test narrows it (ErrorInfo, a result). */
export interface CamaraReply {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}
import { assertCamaraResponse } from './camara-spec';
import { TokenSource, startTokenSource } from './camara-tokens';

export interface CamaraCallOptions {
  /** Bearer token; null sends no Authorization header. */
  token?: string | null;
  /** The whole Authorization header, instead of `Bearer <token>`. */
  authorization?: string;
  headers?: Record<string, string>;
  /** null sends no Content-Type. */
  contentType?: string | null;
  method?: string;
}

export interface CamaraHarness {
  h: Harness;
  url: string;
  tokens: TokenSource;
  /** A two-legged token for the demo partner with every CAMARA scope it may hold. */
  token: string;
  /** POSTs (or `method`) to a CAMARA path; the reply is validated against the official documents. */
  call(path: string, body: unknown, opts?: CamaraCallOptions): Promise<CamaraReply>;
  close(): Promise<void>;
}

/** The real server and simulator, with access tokens from the real verification path. */
export async function startCamaraHarness(opts: HarnessOptions = {}): Promise<CamaraHarness> {
  const tokens = await startTokenSource();
  const h = await startHarness({ ...opts, env: { ...tokens.env, ...opts.env } });
  tokens.attach(h);
  const token = await tokens.twoLegged({ scope: 'sim-swap kyc-tenure:check-tenure' });
  const call = async (path: string, body: unknown, o: CamaraCallOptions = {}): Promise<CamaraReply> => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.contentType !== null) headers['content-type'] = o.contentType ?? 'application/json';
    const bearer = o.token === undefined ? token : o.token;
    if (o.authorization !== undefined) headers.authorization = o.authorization;
    else if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    const method = o.method ?? 'POST';
    const init: RequestInit = { method, headers };
    if (method !== 'GET' && method !== 'HEAD' && body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
    const res = await fetch(`${h.url}${path}`, init);
    const text = await res.text();
    let parsed: unknown;
    try { parsed = JSON.parse(text); } catch { parsed = undefined; }
    assertCamaraResponse(method, new URL(`${h.url}${path}`).pathname, res.status, res.headers, parsed, text);
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  return {
    h, url: h.url, tokens, token, call,
    close: async () => {
      await h.close();
      await tokens.close();
    },
  };
}
