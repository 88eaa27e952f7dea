import { LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { SinkPolicy } from '../ports/event-delivery';
import { InvalidSinkError } from '../domain/subscription-errors';
import { SinkResolver } from './sink-dns';

export interface SinkRules {
  /** SINK_ALLOW_HTTP: plain http sinks accepted. */
  allowHttp: boolean;
  /** SINK_ALLOW_PRIVATE: loopback, private, link-local (any non-public) addresses accepted. */
  allowPrivate: boolean;
}

/**
 * The IPv4 address an IPv6 one stands for, where it embeds one: IPv4-mapped (::ffff:0:0/96),
 * 6to4 (2002::/16, RFC 3056) and the NAT64 well-known prefix (64:ff9b::/96, RFC 6052); null
 * when it embeds none; 'refuse' for forms with no single meaning or deprecated: IPv4-compatible
 * (::/96, RFC 4291 §2.5.5.1, `[::7f00:1]` is 127.0.0.1 on stacks that still route it), Teredo
 * (2001::/32, a tunnel to whatever its client is) and local-use NAT64 (64:ff9b:1::/48).
 */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null | 'refuse' {
  const p = ip.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address();
  if (p.slice(0, 6).every((x) => x === 0)) return 'refuse';
  if (p[0] === 0x2002) return v4(p[1], p[2]);
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((x) => x === 0)) return v4(p[6], p[7]);
  if (p[0] === 0x64 && p[1] === 0xff9b && p[2] === 1) return 'refuse';
  if (p[0] === 0x2001 && p[1] === 0) return 'refuse';
  return null;
}

/**
 * `::a.b.c.d` written with its last 32 bits as hex: ipaddr.js reads that IPv4-compatible form
 * as IPv4-mapped (::ffff:a.b.c.d), which is another address and would be judged as its IPv4.
 */
function dottedTailAsHex(address: string): string {
  return address.replace(/(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/, (_, a: string, b: string, c: string, d: string) =>
    `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`);
}

/** True when the address is public unicast; an IPv6 address embedding an IPv4 one is judged as that IPv4 address. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.parse(address.includes(':') ? dottedTailAsHex(address) : address);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const embedded = embeddedIPv4(ip as ipaddr.IPv6);
  if (embedded === 'refuse') return false;
  return (embedded ?? ip).range() === 'unicast';
}

function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * CONTRACT §8 at creation: https unless allowed, and every address the host resolves to public
 * unless allowed. Delivery checks again at connect time (sinkLookup), as DNS may change.
 */
export function sinkAddressPolicy(rules: SinkRules, resolve: SinkResolver): SinkPolicy {
  return {
    async check(sink: string): Promise<void> {
      const url = new URL(sink);
      if (url.protocol !== 'https:' && !(rules.allowHttp && url.protocol === 'http:')) {
        throw new InvalidSinkError('sink not valid for the specified protocol: an https URL is required');
      }
      if (rules.allowPrivate) return;
      let addresses: LookupAddress[];
      try {
        addresses = await resolve(hostOf(url));
      } catch {
        throw new InvalidSinkError('sink host does not resolve');
      }
      if (addresses.length === 0 || !addresses.every((a) => isPublicAddress(a.address))) {
        throw new InvalidSinkError('sink resolves to a loopback, private or link-local address');
      }
    },
  };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses non-public addresses at connect time: the address
 * checked is the address connected to (no window for DNS rebinding between check and use).
 */
export function sinkLookup(rules: SinkRules, resolve: SinkResolver) {
  return (host: string, options: { all?: boolean }, callback: LookupCallback): void => {
    // The callback runs on the next tick, outside the promise chain, as dns.lookup's would.
    const answer = (...args: Parameters<LookupCallback>) => process.nextTick(() => callback(...args));
    resolve(host).then((addresses) => {
      const usable = rules.allowPrivate ? addresses : addresses.filter((a) => isPublicAddress(a.address));
      if (usable.length === 0) {
        const refused: NodeJS.ErrnoException = new Error('sink resolves to a refused address');
        refused.code = 'ESINKREFUSED';
        return answer(refused, []);
      }
      if (options.all) return answer(null, usable);
      return answer(null, usable[0].address, usable[0].family);
    }, (err: NodeJS.ErrnoException) => answer(err, []));
  };
}
