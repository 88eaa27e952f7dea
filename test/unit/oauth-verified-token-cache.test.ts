import { VerifiedTokenCache } from '../../src/oauth/adapters/verified-token-cache';

const claims = (expMs: number) => ({ clientId: 'c', scopes: ['sim-swap'], expMs });

describe('verified token cache', () => {
  it('when a token is cached, then it is keyed by a hash, not the token', () => {
    const key = VerifiedTokenCache.keyOf('header.payload.signature');
    expect(key).not.toContain('payload');
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("when an entry is past the token's exp or past its max age, then it is never served", () => {
    const cache = new VerifiedTokenCache(10, 60_000);
    cache.set('a', claims(10_000), 0);
    expect(cache.get('a', 9_999)).toBeDefined();
    expect(cache.get('a', 10_000)).toBeUndefined();
    cache.set('b', claims(1_000_000), 0);
    expect(cache.get('b', 59_999)).toBeDefined();
    expect(cache.get('b', 60_000)).toBeUndefined();
  });

  it('when a token has already expired, then it is not stored', () => {
    const cache = new VerifiedTokenCache(10, 60_000);
    cache.set('a', claims(5), 10);
    expect(cache.size).toBe(0);
  });

  it('when the cache is full, then it stays within its bound by dropping the oldest entry', () => {
    const cache = new VerifiedTokenCache(2, 60_000);
    cache.set('a', claims(1e9), 0);
    cache.set('b', claims(1e9), 0);
    cache.set('c', claims(1e9), 0);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('c', 1)).toBeDefined();
  });

  it('when the bound is passed, then the least recently used token goes, so a busy token stays verified', () => {
    const cache = new VerifiedTokenCache(2, 60_000);
    cache.set('a', claims(1e9), 0);
    cache.set('b', claims(1e9), 0);
    cache.get('a', 1);
    cache.set('c', claims(1e9), 2);
    expect(cache.get('a', 3)).toBeDefined();
    expect(cache.get('b', 3)).toBeUndefined();
  });

  it('when it has 0 entries or 0 seconds, then the cache is off', () => {
    for (const c of [new VerifiedTokenCache(0, 60_000), new VerifiedTokenCache(10, 0)]) {
      c.set('a', claims(1e9), 0);
      expect(c.get('a', 1)).toBeUndefined();
    }
  });
});
