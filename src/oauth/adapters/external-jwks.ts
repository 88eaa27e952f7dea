import { FetchImplementation, JWTVerifyGetKey, RemoteJWKSet, createLocalJWKSet, createRemoteJWKSet, customFetch, errors } from 'jose';

/**
 * The most JWKS bytes read: a key set of a few dozen RSA keys is a few tens of KiB, and jose
 * reads a response whole (a 60 MB one took the RSS from 128 to 604 MB), so more is refused.
 */
export const JWKS_MAX_BYTES = 1024 * 1024;

/** A JWKS response over JWKS_MAX_BYTES, declared or streamed. */
export class JwksTooLargeError extends Error {
  constructor(maxBytes: number) {
    super(`JWKS response larger than ${maxBytes} bytes`);
    this.name = 'JwksTooLargeError';
  }
}

/**
 * jose's fetch (its own options: timeout signal, no redirects, headers), with the body cut at
 * maxBytes: a declared Content-Length over it is refused before reading, and a stream that runs
 * past it is aborted at once, so no more than maxBytes (plus one chunk) is ever held.
 */
export function sizeCappedFetch(maxBytes: number): FetchImplementation {
  return async (url, options) => {
    const cut = new AbortController();
    const res = await fetch(url, { ...options, signal: AbortSignal.any([options.signal, cut.signal]) });
    if (Number(res.headers.get('content-length')) > maxBytes) {
      cut.abort();
      throw new JwksTooLargeError(maxBytes);
    }
    if (!res.body) return res;
    let seen = 0;
    const capped = res.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        seen += chunk.byteLength;
        if (seen > maxBytes) {
          out.error(new JwksTooLargeError(maxBytes));
          cut.abort();
          return;
        }
        out.enqueue(chunk);
      },
    }));
    return new Response(capped, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

export interface ExternalJwksOptions {
  url: string;
  /** Longest wait for one JWKS fetch. */
  timeoutMs: number;
  /** Keys older than this are refreshed in the background while they keep verifying. */
  maxAgeMs: number;
  /** After a fetch attempt (successful or not), neither an unknown kid nor staleness triggers another for this long. */
  cooldownMs: number;
  onRefreshError?: (err: Error) => void;
  /** Largest JWKS response read (default JWKS_MAX_BYTES). */
  maxBytes?: number;
}

type GetKeyArgs = Parameters<JWTVerifyGetKey>;
type LocalSet = ReturnType<typeof createLocalJWKSet>;

/**
 * The trusted external issuer's keys, fetched by jose's remote JWKS (timeout, de-duplicated
 * fetches) and verified against jose's local key set (keys imported once, selected by kid and
 * alg). What it adds: keys known once stay in use while a refresh fails or hangs, stale keys are
 * refreshed in the background instead of on a request's time, and an unknown kid refetches at
 * most once per cooldown. So no request waits past the fetch timeout, and only a request whose
 * kid is unknown ever waits at all.
 */
export class ExternalJwks {
  private readonly remote: RemoteJWKSet;
  private local: LocalSet | undefined;
  private fetchedAtMs = Number.NEGATIVE_INFINITY;
  private attemptedAtMs = Number.NEGATIVE_INFINITY;
  private pending: Promise<void> | undefined;

  constructor(private readonly opts: ExternalJwksOptions) {
    // jose's own cache and cooldown are bypassed (this class decides when to fetch): reload() only.
    this.remote = createRemoteJWKSet(new URL(opts.url), {
      timeoutDuration: opts.timeoutMs, cooldownDuration: 0, cacheMaxAge: 0, [customFetch]: sizeCappedFetch(opts.maxBytes ?? JWKS_MAX_BYTES),
    });
  }

  /** The key-selection function jwtVerify takes. */
  readonly getKey = async (...[header, token]: GetKeyArgs) => {
    if (!this.local) {
      // However the fetch failed (refused, 5xx, timeout; reported through onRefreshError), or
      // whether this request started it or joined one in flight: no keys is one condition.
      await this.fetchUnlessCoolingDown().catch(() => undefined);
      if (!this.local) throw new errors.JWKSInvalid('issuer keys unavailable');
    } else if (this.stale() && !this.pending && !this.coolingDown()) {
      this.refresh().catch(() => undefined); // reported through onRefreshError
    }
    try {
      return await this.local(header, token);
    } catch (err) {
      if (!(err instanceof errors.JWKSNoMatchingKey)) throw err;
      // An unknown kid: the issuer may have rotated. Refetch once (unless one was just made), retry
      // once; a failed refetch leaves the keys in force, so the kid stays unknown.
      await this.fetchUnlessCoolingDown().catch(() => undefined);
      return this.local(header, token);
    }
  };

  /** Joins a fetch in flight, or starts one unless the last attempt is within the cooldown. */
  private async fetchUnlessCoolingDown(): Promise<void> {
    if (this.pending) {
      await this.pending.catch(() => undefined);
      return;
    }
    if (!this.coolingDown()) await this.refresh();
  }

  private stale(): boolean {
    return Date.now() - this.fetchedAtMs >= this.opts.maxAgeMs;
  }

  /** A fetch was attempted (whatever its outcome) less than the cooldown ago. */
  private coolingDown(): boolean {
    return Date.now() - this.attemptedAtMs < this.opts.cooldownMs;
  }

  /** Fetches the key set now (one fetch at a time); on failure the keys in force stay. */
  refresh(): Promise<void> {
    this.pending ??= (async () => {
      this.attemptedAtMs = Date.now();
      try {
        await this.remote.reload();
        const jwks = this.remote.jwks();
        if (jwks) {
          this.local = createLocalJWKSet(jwks);
          this.fetchedAtMs = Date.now();
        }
      } catch (err) {
        // jose reports a body cut short as unparseable JSON; the log says why it was cut.
        const cause = (err as Error).cause;
        this.opts.onRefreshError?.(cause instanceof JwksTooLargeError ? cause : err as Error);
        throw err;
      } finally {
        this.pending = undefined;
      }
    })();
    return this.pending;
  }
}
