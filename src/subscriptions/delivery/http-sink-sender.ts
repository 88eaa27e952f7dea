import http from 'node:http';
import https from 'node:https';
import { Delivery, SinkCredential } from '../domain/subscription';
import { SinkRules, sinkLookup } from './sink-address-policy';
import { SinkResolver } from './sink-dns';

/** How one attempt ended; `delivered` is a 2xx; `withdrawn`: not sent, the partner may no longer receive events. */
export type AttemptOutcome = 'delivered' | 'http_error' | 'redirect' | 'timeout' | 'network_error' | 'refused' | 'withdrawn';

export interface SinkSenderOptions extends SinkRules {
  /** WEBHOOK_TIMEOUT_MS: the whole attempt, connect to last byte. */
  timeoutMs: number;
  /** The same resolver the creation check uses (c-ares, bounded). */
  resolve: SinkResolver;
}

export type SinkSender = (d: Delivery) => Promise<AttemptOutcome>;

function authorization(c: SinkCredential | undefined): string | undefined {
  if (!c) return undefined;
  switch (c.credentialType) {
    case 'ACCESSTOKEN': return `Bearer ${c.accessToken}`;
    case 'PLAIN': return `Basic ${Buffer.from(`${c.identifier}:${c.secret}`).toString('base64')}`;
    // The delivery adapter opens a sealed credential before the attempt; never sent sealed.
    case 'SEALED': throw new Error('sealed credential');
    default: {
      const never: never = c;
      throw new Error(`unknown credential ${String(never)}`);
    }
  }
}

/**
 * POSTs the CloudEvent (structured mode, application/cloudevents+json) to the sink: no
 * redirects followed (3xx is a failure), no pooling across sinks, one deadline per attempt.
 */
export function httpSinkSender(opts: SinkSenderOptions): SinkSender {
  const lookup = sinkLookup(opts, opts.resolve);
  return (d) => new Promise<AttemptOutcome>((resolve) => {
    let url: URL;
    try { url = new URL(d.sink); } catch { resolve('refused'); return; }
    const isHttps = url.protocol === 'https:';
    if (!isHttps && !(opts.allowHttp && url.protocol === 'http:')) { resolve('refused'); return; }
    const body = JSON.stringify(d.event);
    const headers: Record<string, string | number> = {
      'content-type': 'application/cloudevents+json',
      'content-length': Buffer.byteLength(body),
      'user-agent': 'verify-customer-webhooks',
    };
    try {
      const auth = authorization(d.credential);
      if (auth) {
        // A value Node refuses (ERR_INVALID_CHAR: control or non-Latin-1 characters, stored
        // before creation checked them) can never be sent: a permanent failure, dead-lettered.
        http.validateHeaderValue('authorization', auth);
        headers.authorization = auth;
      }
    } catch {
      resolve('refused');
      return;
    }
    let settled = false;
    const done = (o: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(o);
    };
    const req = (isHttps ? https : http).request(url, { method: 'POST', headers, lookup, agent: false }, (res) => {
      res.resume();
      const status = res.statusCode ?? 0;
      res.once('end', () => done(status >= 200 && status < 300 ? 'delivered' : status >= 300 && status < 400 ? 'redirect' : 'http_error'));
      res.once('error', () => done('network_error'));
    });
    const timer = setTimeout(() => {
      done('timeout');
      req.destroy();
    }, opts.timeoutMs);
    req.once('error', (err: NodeJS.ErrnoException) => done(err.code === 'ESINKREFUSED' ? 'refused' : 'network_error'));
    req.end(body);
    // Anything http.request throws (a header, an option) rejects this promise: a refused
    // attempt, so no caller ever sees a rejection.
  }).catch((): AttemptOutcome => 'refused');
}
