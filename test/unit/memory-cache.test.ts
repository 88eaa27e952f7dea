import { EVICTION_HOLD_S } from '../../src/verification/ports/state-store';
import { MemoryCache } from '../../src/verification/state/memory-cache';

/* The embedded cache on lru-cache: its bound and recency, our TTL on the injected clock. */

function setup(maxEntries: number) {
  let now = 0;
  const cache = new MemoryCache({ nowMs: () => now }, maxEntries);
  const entry = (value: string) => ({ value, storedAtMs: now });
  const put = async (key: string, ttlS = 60) => cache.set(key, entry(key), ttlS, (await cache.get(key)).version);
  return { cache, put, advance: (ms: number) => { now += ms; } };
}

describe('the memory cache', () => {
  test('when the clock starts at 0, then an entry still expires after its TTL (not kept forever)', async () => {
    const { cache, put, advance } = setup(10);
    await put('a', 1);
    advance(1000);
    expect((await cache.get('a')).entry?.value).toBe('a');
    advance(1);
    expect((await cache.get('a')).entry).toBeNull();
  });

  test('when the bound is passed, then the least recently read entry goes, not the oldest written', async () => {
    const { cache, put } = setup(2);
    await put('a');
    await put('b');
    await cache.get('a');
    await put('c');
    expect(cache.size).toBe(2);
    expect((await cache.get('a')).entry?.value).toBe('a');
    expect((await cache.get('b')).entry).toBeNull();
  });

  test('when a key was evicted, then a write based on a read from before is refused until the hold ends', async () => {
    const { cache, put, advance } = setup(10);
    await put('a');
    const before = (await cache.get('a')).version;
    await cache.delete(['a']);
    expect(await cache.set('a', { value: 'stale', storedAtMs: 0 }, 60, before)).toBe(false);
    advance(EVICTION_HOLD_S * 1000 + 1);
    expect((await cache.get('a')).version).toBeNull();
  });

  test('when a TTL is 0 or less, then nothing is stored', async () => {
    const { cache, put } = setup(10);
    expect(await put('a', 0)).toBe(false);
    expect(cache.size).toBe(0);
  });
});
