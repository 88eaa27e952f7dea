import { randomBytes } from 'node:crypto';
import { Cache, CacheEntry, CacheRead, EVICTION_HOLD_S } from '../ports/state-store';
import { RedisClient } from './redis-connection';

/*
 * Value: "<storedAtMs in base 36>|<value>". Base 36 keeps the timestamp at 8 characters
 * (13 in decimal); the domain's values are a few bytes each (fact-codec.ts), so the whole
 * entry of a cached KYC answer is about 25 bytes. The first "|" ends the timestamp; the
 * value may contain anything after it.
 */
const SEPARATOR = '|';

export function encodeCacheEntry(entry: CacheEntry): string {
  return `${Math.trunc(entry.storedAtMs).toString(36)}${SEPARATOR}${entry.value}`;
}

/** Null for a value this version cannot read: treated as a miss, overwritten on the next fill. */
export function decodeCacheEntry(raw: string): CacheEntry | null {
  const i = raw.indexOf(SEPARATOR);
  if (i <= 0) return null;
  const storedAtMs = parseInt(raw.slice(0, i), 36);
  if (!Number.isSafeInteger(storedAtMs)) return null;
  return { storedAtMs, value: raw.slice(i + 1) };
}

/*
 * An eviction leaves a tombstone, "!" and 16 random hex digits, for EVICTION_HOLD_S. It decodes
 * as no entry (there is no "|"), and it is a value no read before the eviction can have seen, on
 * any instance: the conditional write (vcCacheSet) compares the whole value it read.
 */
const TOMBSTONE = '!';
const HOLD_MS = EVICTION_HOLD_S * 1000;

/**
 * Cache entries as plain strings with a Redis TTL, under `<prefix>c:<key>`. Every command
 * names one key: no command crosses hash slots on a cluster.
 *
 * A key's version is its raw value. A write is a compare-and-set on it (vcCacheSet), so a
 * lookup that started before a swap event on any instance cannot write its answer over the
 * eviction: the instances share the cache, and so they share its versions.
 */
export class RedisCache implements Cache {
  constructor(private readonly client: RedisClient, private readonly keyPrefix: string) {}

  async get(key: string): Promise<CacheRead> {
    const raw = await this.client.get(this.keyPrefix + key);
    return raw === null ? { entry: null, version: null } : { entry: decodeCacheEntry(raw), version: raw };
  }

  async set(key: string, entry: CacheEntry, ttlS: number, version: string | null): Promise<boolean> {
    // Same rule as the memory cache: a zero TTL means "do not cache" (SET PX 0 is an error).
    const ttlMs = Math.round(ttlS * 1000);
    if (ttlMs <= 0) return false;
    return (await this.client.vcCacheSet(this.keyPrefix + key, version ?? '', encodeCacheEntry(entry), ttlMs)) === 1;
  }

  /**
   * One SET per key rather than one multi-key command: the keys of one number (kyc:, sim:) may
   * live in different slots. Auto-pipelining still sends them in one round trip per node.
   */
  async delete(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((k) => this.client.set(this.keyPrefix + k, TOMBSTONE + randomBytes(8).toString('hex'), 'PX', HOLD_MS)));
  }
}
