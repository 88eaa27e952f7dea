import http from 'node:http';
import https from 'node:https';
import axios, { AxiosInstance } from 'axios';
import CircuitBreaker from 'opossum';
import { UpstreamUnavailableError } from '../../errors/domain-errors';
import { BreakerState, Metrics, UpstreamOutcome } from '../ports/metrics';
import { UpstreamName } from '../ports/upstreams';
import { Logger } from '../../observability/logger';
import { BreakerOptions } from './breaker-options';
import { isPlainObject } from '../../kernel/plain-object';
import { UndiciAdapter, undiciAdapter } from './undici-adapter';

export interface HttpUpstreamOptions<T> {
  name: UpstreamName;
  baseUrl: string;
  timeoutMs: number;
  maxSockets: number;
  /** The largest reply body accepted, in bytes after decoding (UPSTREAM_MAX_BODY_BYTES; default 64 KiB). */
  maxBodyBytes?: number;
  breaker: BreakerOptions;
  metrics: Metrics;
  /** Turns a 200 body into a record; throws when the body is not what the contract says. */
  parse(body: unknown): T;
  /** `lastFailure`: the failed call that tipped it, when the breaker opens (what and which error code). */
  onBreakerChange?(upstream: UpstreamName, state: BreakerState, lastFailure?: { outcome: UpstreamOutcome; code?: string; message: string }): void;
  /** Each failed call is logged here at warn, with the system's error code (ECONNREFUSED, ENOTFOUND, a TLS code). */
  logger?: Logger;
  /**
   * What carries axios's requests: an undici Pool (default; half the CPU per call, see
   * docs/performance.md) or node:http agents (axios's own adapter, kept for paired measurement).
   */
  transport?: 'undici' | 'node-http';
}

/** Why a call failed; a breaker failure in every case (the contract's 404 is an answer, not a failure). */
class CallFailure extends Error {
  /** The system's error code when the connection failed (ECONNREFUSED, ENOTFOUND, CERT_HAS_EXPIRED...). */
  readonly code: string | undefined;

  constructor(readonly outcome: UpstreamOutcome, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = codeOf(cause);
  }
}

/** The error code of a failed connection: axios copies it from the socket's error; else the cause's. */
function codeOf(err: unknown): string | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'ERR_BAD_RESPONSE' && code !== 'ERR_BAD_REQUEST') return code;
  }
  return undefined;
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * "Not a subscriber" (CONTRACT §3 says only "404"): a 404 with a JSON Content-Type whose body
 * is a JSON object naming the number asked in `msisdn`, as the simulator answers
 * `{"error":"not_found","msisdn":"…"}` (docs/decisions.md). Any other 404 (an HTML page from an
 * ingress default backend, an empty body, a gateway's or a wrong path's JSON 404) says nothing
 * about the subscriber: believing it would turn every KYC into a cached all-false answer.
 */
export function isNotASubscriber(contentType: unknown, body: unknown, msisdn: string): boolean {
  if (typeof contentType !== 'string' || !JSON_TYPE.test(contentType)) return false;
  return isPlainObject(body) && body.msisdn === msisdn;
}

/**
 * Whether a 200 body is about the number asked: a body naming another `msisdn` (a misrouted or
 * mixed-up reply) is not used (CONTRACT §3). A body naming none is read as it is: the customer
 * records' body carries no `msisdn` in the contract (docs/decisions.md).
 */
export function namesAnotherSubscriber(body: unknown, msisdn: string): boolean {
  return isPlainObject(body) && Object.hasOwn(body, 'msisdn') && body.msisdn !== msisdn;
}

/** The reply body limit when no setting says otherwise (CONTRACT §3). */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** Both axios adapters (undici's and node:http's) reject an over-limit body with this message. */
function isTooLarge(err: unknown): boolean {
  return axios.isAxiosError(err) && err.message.startsWith('maxContentLength size of');
}

/** The one header every upstream call sends. */
const UPSTREAM_HEADERS = { accept: 'application/json' } as const;

/**
 * axios merges the instance's defaults into every call's config, deep-copying the headers
 * object with its per-method sections, and this is most of what axios costs a cache miss
 * (docs/performance.md). These calls are all GET, with one header, from a server
 * (no browser cookies): the per-method header sections and the XSRF cookie settings are
 * dropped from the defaults, so each call merges only what it uses. (Dropping `env` and
 * `transitional` as well measured no further gain, so they stay.)
 */
function trimDefaults(instance: AxiosInstance): void {
  const defaults = instance.defaults as unknown as Record<string, unknown>;
  defaults.headers = { ...UPSTREAM_HEADERS };
  delete defaults.xsrfCookieName;
  delete defaults.xsrfHeaderName;
}

/**
 * A GET-a-JSON-record upstream (CONTRACT §3) behind its own circuit breaker. Each call has
 * a hard deadline that aborts the request; 5xx, timeouts, connection errors, unreadable
 * bodies and any 404 but the contract's count against the breaker; the contract's 404
 * (isNotASubscriber) resolves to null ("not a subscriber").
 */
export class HttpUpstream<T> {
  private readonly http: AxiosInstance;
  private readonly pool: UndiciAdapter | undefined;
  private readonly agents: { http: http.Agent; https: https.Agent } | undefined;
  private readonly breaker: CircuitBreaker<[string, string], T | null>;
  private readonly retryAfterS: number;
  private lastFailure: CallFailure | undefined;

  constructor(private readonly opts: HttpUpstreamOptions<T>) {
    if (opts.transport === 'node-http') {
      this.agents = { http: new http.Agent({ keepAlive: true, maxSockets: opts.maxSockets }), https: new https.Agent({ keepAlive: true, maxSockets: opts.maxSockets }) };
    } else {
      this.pool = undiciAdapter(opts.baseUrl, { connections: opts.maxSockets });
    }
    this.http = axios.create({
      baseURL: opts.baseUrl,
      ...(this.pool ? { adapter: this.pool.adapter } : { httpAgent: this.agents?.http, httpsAgent: this.agents?.https }),
      validateStatus: () => true,
      maxRedirects: 0,
      // Counted on the decoded bytes by both adapters, as they stream in (CONTRACT §3).
      maxContentLength: opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      headers: { ...UPSTREAM_HEADERS },
    });
    trimDefaults(this.http);
    this.breaker = new CircuitBreaker((path: string, msisdn: string) => this.call(path, msisdn), {
      timeout: false, // the call's own AbortSignal is the deadline; it really cancels the request
      errorThresholdPercentage: opts.breaker.errorThresholdPercentage,
      volumeThreshold: opts.breaker.volumeThreshold,
      rollingCountTimeout: opts.breaker.windowMs,
      rollingCountBuckets: 10,
      resetTimeout: opts.breaker.resetTimeoutMs,
    });
    this.retryAfterS = Math.max(1, Math.ceil(opts.breaker.resetTimeoutMs / 1000));
    const report = (state: BreakerState) => {
      opts.metrics.breakerState(opts.name, state);
      const last = this.lastFailure;
      opts.onBreakerChange?.(opts.name, state, state === 'open' && last ? { outcome: last.outcome, code: last.code, message: last.message } : undefined);
    };
    this.breaker.on('open', () => report('open'));
    this.breaker.on('halfOpen', () => report('half_open'));
    this.breaker.on('close', () => report('closed'));
    opts.metrics.breakerState(opts.name, 'closed');
  }

  /** GETs the path; the record, null for the contract's 404 about msisdn, or UpstreamUnavailableError. */
  async get(path: string, msisdn: string): Promise<T | null> {
    try {
      return await this.breaker.fire(path, msisdn);
    } catch (err) {
      if (err instanceof CallFailure) {
        throw new UpstreamUnavailableError(`${this.opts.name} ${err.message}`, 1, { cause: err });
      }
      if (this.breaker.opened || this.breaker.halfOpen) {
        this.opts.metrics.upstreamCall(this.opts.name, 'rejected', 0);
        throw new UpstreamUnavailableError(`${this.opts.name} unavailable (circuit open)`, this.retryAfterS, { cause: err });
      }
      throw new UpstreamUnavailableError(`${this.opts.name} unavailable`, 1, { cause: err });
    }
  }

  state(): BreakerState {
    if (this.breaker.opened) return 'open';
    return this.breaker.halfOpen ? 'half_open' : 'closed';
  }

  shutdown(): void {
    this.breaker.shutdown();
    this.agents?.http.destroy();
    this.agents?.https.destroy();
    this.pool?.destroy().catch(() => undefined);
  }

  private failureOf(err: unknown): CallFailure {
    if (isTooLarge(err)) {
      this.opts.metrics.upstreamReplyRefused(this.opts.name, 'too_large');
      return new CallFailure('error', `answered a body over ${this.opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES} bytes`);
    }
    if (axios.isCancel(err) || (err as { code?: string }).code === 'ECONNABORTED') {
      // Our own deadline aborted it: axios's ERR_CANCELED would only mislead a reader.
      return new CallFailure('timeout', `timed out after ${this.opts.timeoutMs} ms`);
    }
    return new CallFailure('error', 'unreachable', err);
  }

  private async call(path: string, msisdn: string): Promise<T | null> {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    let outcome: UpstreamOutcome = 'error';
    // A timer cleared when the call ends, not AbortSignal.timeout: that one fires after every
    // call that beat it (a DOMException and an abort event each): a fifth of the client's
    // time in its profile.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.opts.timeoutMs);
    try {
      const res = await this.http.get(path, { signal: deadline.signal });
      if (res.status === 404) {
        if (!isNotASubscriber(res.headers['content-type'], res.data, msisdn)) {
          throw new CallFailure('error', 'answered HTTP 404 without the contract\'s not-a-subscriber body');
        }
        outcome = 'not_found';
        return null;
      }
      if (res.status !== 200) throw new CallFailure('error', `answered HTTP ${res.status}`);
      if (namesAnotherSubscriber(res.data, msisdn)) {
        this.opts.metrics.upstreamReplyRefused(this.opts.name, 'other_subscriber');
        throw new CallFailure('error', 'answered about another subscriber');
      }
      try {
        const rec = this.opts.parse(res.data);
        outcome = 'ok';
        return rec;
      } catch {
        throw new CallFailure('error', 'answered an unreadable body');
      }
    } catch (err) {
      const failure = err instanceof CallFailure ? err : this.failureOf(err);
      outcome = failure.outcome;
      this.lastFailure = failure;
      // The path holds the msisdn: never logged; the error is reduced to type, message, code and cause by the serializer.
      this.opts.logger?.warn({ upstream: this.opts.name, outcome, code: failure.code, err: failure.cause ?? failure }, `upstream call failed: ${failure.message}`);
      throw failure;
    } finally {
      clearTimeout(timer);
      this.opts.metrics.upstreamCall(this.opts.name, outcome, seconds());
    }
  }
}
