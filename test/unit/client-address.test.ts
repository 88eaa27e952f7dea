import ipaddr from 'ipaddr.js';
import { UNPARSED_ADDRESS, clientAddressKey } from '../../src/http/client-address';

describe('the client address the failed-signature throttle counts', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['::ffff:7f00:1', '127.0.0.1'],
    ['::FFFF:7F00:2', '127.0.0.2'],
    ['0:0:0:0:0:ffff:c000:201', '192.0.2.1'],
    ['::ffff:c000:0201', '192.0.2.1'],
  ])('counts %s as the IPv4 address %s', (raw, key) => {
    expect(clientAddressKey(raw)).toBe(key);
  });

  it('when IPv4-mapped addresses are in hex form, then they are kept apart from one another', () => {
    const keys = new Set(Array.from({ length: 50 }, (_, i) => clientAddressKey(`::ffff:7f00:${(i + 1).toString(16)}`)));
    expect(keys.size).toBe(50);
  });

  it.each([
    ['2001:db8:1:2:aaaa::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['::1', '::/64'],
    ['fe80::1%eth0', 'fe80::/64'],
    ['64:ff9b::192.0.2.33', '64:ff9b::/64'],
  ])('counts the IPv6 address %s by its /64 (%s)', (raw, key) => {
    expect(clientAddressKey(raw)).toBe(key);
  });

  it.each([undefined, '', 'unknown', 'not:an::address::', '192.0.2.1:443', '[::1]', '2001:db8::1, 10.0.0.1'])('when the address is %p (not an address), then it goes in the one shared bucket', (raw) => {
    expect(clientAddressKey(raw)).toBe(UNPARSED_ADDRESS);
  });

  it('when an IPv4 address takes the unparsed fast path, then its key is what ipaddr.js makes of it', () => {
    const octets = ['0', '1', '9', '10', '01', '00', '99', '100', '199', '200', '249', '250', '255', '256', '300', '1000', '-1', ' 1', '0x1'];
    const reference = (ip: string) => {
      if (!ipaddr.isValid(ip)) return UNPARSED_ADDRESS;
      const addr = ipaddr.process(ip);
      return addr.kind() === 'ipv4' ? addr.toString() : 'ipv6';
    };
    let compared = 0;
    for (const a of octets) {
      for (const b of octets) {
        for (const ip of [`${a}.${b}.0.255`, `::ffff:${a}.1.${b}.2`, `${a}.${b}.3`, `1.${a}.${b}.4.5`]) {
          const expected = reference(ip);
          if (expected === 'ipv6') continue;
          expect([ip, clientAddressKey(ip)]).toEqual([ip, expected]);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
