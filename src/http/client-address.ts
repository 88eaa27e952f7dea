import ipaddr from 'ipaddr.js';

/** The one bucket of every client address that does not parse (only a misconfigured proxy sends one). */
export const UNPARSED_ADDRESS = 'unparsed';

/** Dotted-quad IPv4 as ipaddr.js prints it: four decimal octets 0-255, no leading zeros. */
const CANONICAL_IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const MAPPED_PREFIX = '::ffff:';

/**
 * The unit a client address (Express `req.ip`: the socket's peer, or the X-Forwarded-For entry
 * that TRUST_PROXY_HOPS trusts) is counted as by the failed-signature throttle:
 * - IPv4, in its canonical dotted form;
 * - an IPv4-mapped IPv6 address, in any spelling (`::ffff:127.0.0.1`, `::ffff:7f00:1`), as the
 *   IPv4 address it carries, so a dual-stack socket and a proxy's header count alike;
 * - any other IPv6 address by its /64, since one host usually holds a whole /64 and could
 *   rotate through it; a zone (`%eth0`) is dropped;
 * - anything else, all in one bucket, so junk cannot be rotated to escape the address limit.
 */
export function clientAddressKey(ip: string | undefined): string {
  if (ip === undefined) return UNPARSED_ADDRESS;
  // Every request pays this, so the forms a socket reports are read without parsing: an IPv4
  // address already in canonical form, alone or IPv4-mapped, is its own key (ipaddr.js's
  // parse and print cost a cache hit about 2 % of its allocations; docs/performance.md).
  if (CANONICAL_IPV4.test(ip)) return ip;
  if (ip.startsWith(MAPPED_PREFIX) && CANONICAL_IPV4.test(ip.slice(MAPPED_PREFIX.length))) return ip.slice(MAPPED_PREFIX.length);
  if (!ipaddr.isValid(ip)) return UNPARSED_ADDRESS;
  const addr = ipaddr.process(ip);
  if (addr.kind() === 'ipv4') return addr.toString();
  const { parts } = addr as ipaddr.IPv6;
  return `${new ipaddr.IPv6([...parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}
