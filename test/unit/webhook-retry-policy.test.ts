import { SinkSlots, nextDelayMs } from '../../src/subscriptions/delivery/retry-policy';
import { isPublicAddress } from '../../src/subscriptions/delivery/sink-address-policy';

const S = { windowMs: 86_400_000, baseMs: 1000, maxMs: 60_000 };

describe('webhook retry timing', () => {
  test('when a delivery is retried, then the delay doubles from the base with equal jitter: between half and all of the doubled delay', () => {
    expect(nextDelayMs(1, S, Infinity, () => 0)).toBe(500);
    expect(nextDelayMs(1, S, Infinity, () => 1)).toBe(1000);
    expect(nextDelayMs(3, S, Infinity, () => 0)).toBe(2000);
    expect(nextDelayMs(3, S, Infinity, () => 1)).toBe(4000);
  });

  test('when the delay is computed, then it never exceeds the maximum nor passes the end of the window', () => {
    expect(nextDelayMs(40, S, Infinity, () => 1)).toBe(60_000);
    expect(nextDelayMs(40, S, 1234, () => 1)).toBe(1234);
    expect(nextDelayMs(2, S, -5, () => 1)).toBe(0);
  });

  test('when a sink origin has its limit of slots, then it gets no more, and other origins are unaffected', () => {
    const slots = new SinkSlots(2);
    const slow = SinkSlots.origin('https://slow.example/a?x=1');
    expect(SinkSlots.origin('https://slow.example/b')).toBe(slow);
    expect(slots.tryTake(slow)).toBe(true);
    expect(slots.tryTake(slow)).toBe(true);
    expect(slots.tryTake(slow)).toBe(false);
    expect(slots.tryTake('https://other.example')).toBe(true);
    slots.release(slow);
    expect(slots.tryTake(slow)).toBe(true);
  });
});

describe('sink addresses (CONTRACT §8)', () => {
  test.each(['8.8.8.8', '2001:4860:4860::8888', '::ffff:8.8.8.8'])('when the address is %s, then it is public', (a) => expect(isPublicAddress(a)).toBe(true));
  test.each(['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '255.255.255.255', '224.0.0.1', 'not-an-ip'])(
    'when the address is %s, then it is refused', (a) => expect(isPublicAddress(a)).toBe(false));
});

describe('sink addresses: IPv6 forms that embed an IPv4 address', () => {
  test.each([
    ['::7f00:1', 'IPv4-compatible loopback'], ['::127.0.0.1', 'IPv4-compatible loopback, dotted'], ['::a00:1', 'IPv4-compatible private'],
    ['::8.8.8.8', 'IPv4-compatible (deprecated, whatever it embeds)'], ['::', 'unspecified'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback'], ['::ffff:192.168.0.1', 'IPv4-mapped private'],
    ['2002:7f00:1::1', '6to4 of 127.0.0.1'], ['2002:a00:1::', '6to4 of 10.0.0.1'], ['2002:a9fe:a9fe::1', '6to4 of 169.254.169.254'],
    ['64:ff9b::7f00:1', 'NAT64 of 127.0.0.1'], ['64:ff9b::10.1.2.3', 'NAT64 of 10.1.2.3'], ['64:ff9b:1::808:808', 'local-use NAT64'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ])('when the address is %s (%s), then it is refused', (a) => expect(isPublicAddress(a)).toBe(false));

  test.each(['2002:808:808::1', '64:ff9b::808:808', '64:ff9b::8.8.4.4', '2606:4700:4700::1111'])(
    'when the address is %s (embedding a public IPv4 address, or none), then it is public', (a) => expect(isPublicAddress(a)).toBe(true));
});
