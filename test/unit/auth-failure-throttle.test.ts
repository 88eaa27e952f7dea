import { AuthFailureThrottle } from '../../src/partners/auth-failure-throttle';
import { Authenticator } from '../../src/partners/authenticator';
import { RateLimitedError, UnauthenticatedError } from '../../src/errors/domain-errors';
import { noopMetrics } from '../../src/verification/ports/metrics';
import { Partner } from '../../src/partners/partners';
import { md5Sig } from '../support/signing';

function clockAt(ms: number) {
  return { t: ms, nowMs() { return this.t; } };
}

describe('AuthFailureThrottle', () => {
  const setup = (over: Partial<{ pairLimit: number; addressLimit: number; windowS: number; maxTracked: number }> = {}) => {
    const clock = clockAt(1_000_000);
    const throttle = new AuthFailureThrottle({ clock, pairLimit: 3, addressLimit: 5, windowS: 60, ...over });
    return { clock, throttle };
  };

  it('when a key fails up to its limit from one address, then it is refused there until the oldest failure leaves the window', () => {
    const { clock, throttle } = setup();
    for (let i = 0; i < 3; i++) {
      expect(throttle.retryAfterS('k', undefined)).toBeUndefined();
      throttle.recordFailure('k', undefined);
      clock.t += 10_000;
    }
    // failures at 0 s, 10 s, 20 s; now 30 s: the first leaves the window at 60 s
    expect(throttle.retryAfterS('k', undefined)).toBe(30);
    clock.t += 29_500;
    expect(throttle.retryAfterS('k', undefined)).toBe(1);
    clock.t += 500;
    expect(throttle.retryAfterS('k', undefined)).toBeUndefined();
  });

  it('when a guesser keeps going, then the window slides and it gets at most the limit per window', () => {
    const { clock, throttle } = setup();
    let allowed = 0;
    for (let s = 0; s < 600; s++) {
      if (throttle.retryAfterS('k', undefined) === undefined) {
        allowed++;
        throttle.recordFailure('k', undefined);
      }
      clock.t += 1000;
    }
    expect(allowed).toBe(3 * 10);
  });

  it('when keys fail from one address, then they are counted apart, and every key is blocked once the address is over its limit', () => {
    const { throttle } = setup();
    for (let i = 0; i < 3; i++) throttle.recordFailure('a', '10.0.0.1');
    expect(throttle.retryAfterS('a', '10.0.0.1')).toBeDefined();
    expect(throttle.retryAfterS('b', '10.0.0.1')).toBeUndefined();
    throttle.recordFailure('c', '10.0.0.1');
    throttle.recordFailure('d', '10.0.0.1');
    expect(throttle.retryAfterS('b', '10.0.0.1')).toBeDefined();
    expect(throttle.retryAfterS('b', '10.0.0.2')).toBeUndefined();
  });

  it('when many addresses fail with a key, then that key is never throttled from an address that is not failing', () => {
    const { throttle } = setup();
    for (let i = 0; i < 1000; i++) throttle.recordFailure('partner-key', `198.51.100.${i % 250}/${i}`);
    expect(throttle.retryAfterS('partner-key', '203.0.113.7')).toBeUndefined();
    // Each failing address is throttled for that key once it is over the pair limit.
    for (let i = 0; i < 3; i++) throttle.recordFailure('partner-key', '192.0.2.1');
    expect(throttle.retryAfterS('partner-key', '192.0.2.1')).toBe(60);
    expect(throttle.retryAfterS('partner-key', '203.0.113.7')).toBeUndefined();
  });

  it('when the key and address hold any characters, then their pairs stay apart', () => {
    const { throttle } = setup({ pairLimit: 1 });
    throttle.recordFailure('bc', 'a');
    expect(throttle.retryAfterS('bc', 'a')).toBeDefined();
    expect(throttle.retryAfterS('c', 'ab')).toBeUndefined();
  });

  it('when the address is unknown, then such requests are counted together', () => {
    const { throttle } = setup();
    for (let i = 0; i < 5; i++) throttle.recordFailure(`k${i}`, undefined);
    expect(throttle.retryAfterS('other', undefined)).toBeDefined();
    expect(throttle.retryAfterS('other', '10.0.0.1')).toBeUndefined();
  });

  it('when more than maxTracked subjects fail, then the one that failed least recently is forgotten', () => {
    const { throttle } = setup({ maxTracked: 100, pairLimit: 1 });
    for (let i = 0; i < 1000; i++) throttle.recordFailure(`key-${i}`, `10.0.${i >> 8}.${i & 255}`);
    expect(throttle.tracked()).toEqual({ pairs: 100, addresses: 100 });
    expect(throttle.retryAfterS('key-999', `10.0.3.231`)).toBeDefined();
    expect(throttle.retryAfterS('key-0', '10.0.0.0')).toBeUndefined();
  });
});

describe('Authenticator with the throttle', () => {
  const nowS = 1_800_000_000;
  const partner = (apiKey: string): Partner => ({
    name: apiKey, apiKey, secret: `${apiKey}-secret`, operations: new Set(['kyc']), enabled: true, signature: 'md5',
  });
  const setup = () => {
    const partners = [partner('key1'), partner('key2')];
    const clock = clockAt(nowS * 1000);
    const throttle = new AuthFailureThrottle({ clock, pairLimit: 2, addressLimit: 10, windowS: 60 });
    const failures: string[] = [];
    const auth = new Authenticator({
      registry: { find: (k) => partners.find((p) => p.apiKey === k), all: () => partners },
      clock, maxSkewS: 300, metrics: { ...noopMetrics, authFailure: (r) => failures.push(r) }, throttle,
    });
    const good = (k: string) => ({ apiKey: k, timestamp: String(nowS), sig: md5Sig(k, `${k}-secret`, String(nowS)) });
    const bad = (k: string) => ({ apiKey: k, timestamp: String(nowS), sig: md5Sig(k, 'wrong', String(nowS)) });
    return { auth, good, bad, failures, throttle };
  };

  it('when a key has failed its signatures, then it is refused with 429 before even a valid one is checked', () => {
    const { auth, good, bad, failures } = setup();
    expect(() => auth.authenticate(bad('key1'), '10.0.0.1')).toThrow(UnauthenticatedError);
    expect(() => auth.authenticate(bad('key1'), '10.0.0.1')).toThrow(UnauthenticatedError);
    const err = (() => { try { auth.authenticate(good('key1'), '10.0.0.1'); return undefined; } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterS).toBe(60);
    expect((err as RateLimitedError).desc).toBe('Error Process: too many failed authentication attempts');
    expect(failures).toEqual(['bad_signature', 'bad_signature', 'throttled']);
    expect(auth.authenticate(good('key2'), '10.0.0.1').apiKey).toBe('key2');
  });

  it("when an address is not failing, then the key's correctly signed requests from it are still served", () => {
    const { auth, good, bad } = setup();
    for (let i = 0; i < 9; i++) {
      const from = `10.0.1.${i}`;
      for (let j = 0; j < 2; j++) expect(() => auth.authenticate(bad('key1'), from)).toThrow(UnauthenticatedError);
      expect(() => auth.authenticate(good('key1'), from)).toThrow(RateLimitedError);
    }
    expect(auth.authenticate(good('key1'), '10.0.2.1').apiKey).toBe('key1');
  });

  it('when keys are unknown or disabled, then they count like wrong signatures; when a request succeeds or is stale, then it does not count', () => {
    const { auth, good, throttle } = setup();
    for (let i = 0; i < 5; i++) expect(auth.authenticate(good('key1'), '10.0.0.1').apiKey).toBe('key1');
    expect(() => auth.authenticate({ ...good('key1'), timestamp: String(nowS - 1000) }, '10.0.0.1')).toThrow('outside');
    expect(() => auth.authenticate({ apiKey: 'key1' }, '10.0.0.1')).toThrow(UnauthenticatedError);
    expect(throttle.retryAfterS('key1', '10.0.0.1')).toBeUndefined();
    expect(() => auth.authenticate(good('ghost'), '10.0.0.1')).toThrow(UnauthenticatedError);
    expect(() => auth.authenticate(good('ghost'), '10.0.0.1')).toThrow(UnauthenticatedError);
    expect(() => auth.authenticate(good('ghost'), '10.0.0.1')).toThrow(RateLimitedError);
  });
});
