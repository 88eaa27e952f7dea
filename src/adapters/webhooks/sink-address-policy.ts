import { LookupAddress, lookup } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { SinkPolicy } from '../../domain/ports/event-delivery';
import { InvalidSinkError } from '../../domain/subscriptions/subscription-errors';

export interface SinkRules {
  /** SINK_ALLOW_HTTP: plain http sinks accepted. */
  allowHttp: boolean;
  /** SINK_ALLOW_PRIVATE: loopback, private, link-local (any non-public) addresses accepted. */
  allowPrivate: boolean;
}

/** True when the address is public unicast (IPv4-mapped IPv6 judged as the IPv4 it is). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** Every address a host resolves to (a literal IP is its own). */
function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });
}

function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * CONTRACT §8 at creation: https unless allowed, and every address the host resolves to public
 * unless allowed. Delivery checks again at connect time (sinkLookup), as DNS may change.
 */
export function sinkAddressPolicy(rules: SinkRules): SinkPolicy {
  return {
    async check(sink: string): Promise<void> {
      const url = new URL(sink);
      if (url.protocol !== 'https:' && !(rules.allowHttp && url.protocol === 'http:')) {
        throw new InvalidSinkError('sink not valid for the specified protocol: an https URL is required');
      }
      if (rules.allowPrivate) return;
      let addresses: LookupAddress[];
      try {
        addresses = await resolveAll(hostOf(url));
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
export function sinkLookup(rules: SinkRules) {
  return (host: string, options: { all?: boolean }, callback: LookupCallback): void => {
    lookup(host, { all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const usable = rules.allowPrivate ? addresses : addresses.filter((a) => isPublicAddress(a.address));
      if (usable.length === 0) {
        const refused: NodeJS.ErrnoException = new Error('sink resolves to a refused address');
        refused.code = 'ESINKREFUSED';
        return callback(refused, []);
      }
      if (options.all) return callback(null, usable);
      return callback(null, usable[0].address, usable[0].family);
    });
  };
}
