import { Clock } from '../../domain/ports/clock';
import { Cache, CacheEntry } from '../../domain/ports/state-store';

interface Slot {
  entry: CacheEntry;
  expiresAtMs: number;
}

/** A bounded LRU with per-entry TTLs: the embedded default and the Redis fallback. */
export class MemoryCache implements Cache {
  private readonly slots = new Map<string, Slot>();

  constructor(private readonly clock: Clock, private readonly maxEntries: number) {}

  async get(key: string): Promise<CacheEntry | null> {
    const slot = this.slots.get(key);
    if (!slot) return null;
    if (slot.expiresAtMs < this.clock.nowMs()) {
      this.slots.delete(key);
      return null;
    }
    // Re-inserting moves the key to the young end: Map order is the LRU order.
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.entry;
  }

  async set(key: string, entry: CacheEntry, ttlS: number): Promise<void> {
    if (ttlS <= 0) return;
    this.slots.delete(key);
    this.slots.set(key, { entry, expiresAtMs: this.clock.nowMs() + ttlS * 1000 });
    while (this.slots.size > this.maxEntries) {
      const oldest = this.slots.keys().next().value as string;
      this.slots.delete(oldest);
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (const k of keys) this.slots.delete(k);
  }

  get size(): number {
    return this.slots.size;
  }
}
