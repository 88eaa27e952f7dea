import { Cache, CacheEntry } from '../../domain/ports/state-store';
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

/**
 * Cache entries as plain strings with a Redis TTL, under `<prefix>c:<key>`. Every command
 * names one key: no command crosses hash slots on a cluster.
 */
export class RedisCache implements Cache {
  constructor(private readonly client: RedisClient, private readonly keyPrefix: string) {}

  async get(key: string): Promise<CacheEntry | null> {
    const raw = await this.client.get(this.keyPrefix + key);
    return raw === null ? null : decodeCacheEntry(raw);
  }

  async set(key: string, entry: CacheEntry, ttlS: number): Promise<void> {
    // Same rule as the memory cache: a zero TTL means "do not cache" (SET PX 0 is an error).
    const ttlMs = Math.round(ttlS * 1000);
    if (ttlMs <= 0) return;
    await this.client.set(this.keyPrefix + key, encodeCacheEntry(entry), 'PX', ttlMs);
  }

  /**
   * One DEL per key rather than one multi-key DEL: the keys of one number (kyc:, sim:) may
   * live in different slots. Auto-pipelining still sends them in one round trip per node.
   */
  async delete(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((k) => this.client.del(this.keyPrefix + k)));
  }
}
