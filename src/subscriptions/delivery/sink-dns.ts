import { LookupAddress } from 'node:dns';
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';

/*
 * Sink hosts are resolved with c-ares (dns.promises.Resolver), never dns.lookup: getaddrinfo
 * runs on libuv's thread pool (4 threads by default), which the upstream clients' own lookups
 * and the file audit sink share, so a partner whose DNS never answers would hold those threads
 * for the system resolver's whole timeout (about 10 s) per request. c-ares queries are
 * non-blocking sockets on the event loop and are cancelled at our deadline.
 */

export interface SinkResolverOptions {
  /** SINK_DNS_SERVERS, as setServers takes them; empty: the system's (/etc/resolv.conf). */
  servers: string[];
  /** SINK_DNS_TIMEOUT_MS: the whole resolution, A and AAAA together. */
  timeoutMs: number;
}

/** Every address of a host, within the deadline; rejects with a code (ENOTFOUND, ETIMEOUT...) otherwise. */
export type SinkResolver = (host: string) => Promise<LookupAddress[]>;

function fail(code: string, message: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(message);
  err.code = code;
  return err;
}

export function createSinkResolver(opts: SinkResolverOptions): SinkResolver {
  return async (name) => {
    const host = name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
    const family = isIP(host);
    if (family !== 0) return [{ address: host, family }];
    // RFC 6761 §6.3: localhost names are loopback, never asked of DNS (c-ares' queries skip /etc/hosts).
    const lower = host.toLowerCase().replace(/\.$/, '');
    if (lower === 'localhost' || lower.endsWith('.localhost')) return [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }];
    // One channel per resolution: cancel() at the deadline ends this host's queries only.
    const resolver = new Resolver({ timeout: opts.timeoutMs, tries: 1 });
    if (opts.servers.length > 0) resolver.setServers(opts.servers);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        resolver.cancel();
        reject(fail('ETIMEOUT', `no answer for ${host} within ${opts.timeoutMs} ms`));
      }, opts.timeoutMs);
    });
    try {
      const [v4, v6] = await Promise.race([Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]), deadline]);
      const out: LookupAddress[] = [];
      if (v4.status === 'fulfilled') out.push(...v4.value.map((address) => ({ address, family: 4 })));
      if (v6.status === 'fulfilled') out.push(...v6.value.map((address) => ({ address, family: 6 })));
      if (out.length > 0) return out;
      const reason = v4.status === 'rejected' ? v4.reason as NodeJS.ErrnoException : undefined;
      throw fail(reason?.code ?? 'ENOTFOUND', `${host} has no A or AAAA record`);
    } finally {
      clearTimeout(timer);
    }
  };
}
