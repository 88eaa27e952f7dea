import { LRUCache } from 'lru-cache';
import { Clock } from '../../kernel/clock';
import { Cache, CacheEntry, CacheRead, EVICTION_HOLD_S } from '../ports/state-store';

interface Slot {
  entry: CacheEntry;
  expiresAtMs: number;
  version: string;
}

interface Eviction {
  version: string;
  untilMs: number;
}

/**
 * A bounded LRU with per-entry TTLs: the embedded default and the Redis fallback. lru-cache
 * keeps the recency order and the bound; the TTL is checked here against the injected clock
 * (lru-cache's own TTL reads performance.now() and takes a start time of 0 for "no TTL").
 *
 * Versions are numbers from one counter, new on every write and eviction. Evictions are kept
 * apart from the entries, for EVICTION_HOLD_S, so that LRU pressure on the entries can never
 * drop one early: while it is kept, a key without an entry has the eviction's version, and a
 * write based on a read from before the eviction (which saw another version) is refused.
 */
export class MemoryCache implements Cache {
  private readonly slots: LRUCache<string, Slot>;
  /** Every eviction has the same hold, so insertion order is expiry order: a queue, not an LRU. */
  private readonly evictions = new Map<string, Eviction>();
  private nextVersion = 0;

  constructor(private readonly clock: Clock, private readonly maxEntries: number) {
    this.slots = new LRUCache({ max: maxEntries });
  }

  async get(key: string): Promise<CacheRead> {
    const slot = this.liveSlot(key);
    if (!slot) return { entry: null, version: this.evictionVersion(key) };
    this.slots.get(key); // a read is a use: the key moves to the young end
    return { entry: slot.entry, version: slot.version };
  }

  async set(key: string, entry: CacheEntry, ttlS: number, version: string | null): Promise<boolean> {
    if (ttlS <= 0) return false;
    const current = this.liveSlot(key);
    if ((current ? current.version : this.evictionVersion(key)) !== version) return false;
    // Past the bound, lru-cache drops the least recently used entry.
    this.slots.set(key, { entry, expiresAtMs: this.clock.nowMs() + ttlS * 1000, version: this.newVersion() });
    return true;
  }

  async delete(keys: readonly string[]): Promise<void> {
    const untilMs = this.clock.nowMs() + EVICTION_HOLD_S * 1000;
    for (const k of keys) {
      this.slots.delete(k);
      this.evictions.delete(k);
      this.evictions.set(k, { version: this.newVersion(), untilMs });
    }
    // Oldest first, so the ones past their hold go first; the bound only matters under a flood.
    for (const [k, e] of this.evictions) {
      if (e.untilMs >= this.clock.nowMs() && this.evictions.size <= this.maxEntries) break;
      this.evictions.delete(k);
    }
  }

  get size(): number {
    return this.slots.size;
  }

  private liveSlot(key: string): Slot | undefined {
    const slot = this.slots.peek(key);
    if (slot && slot.expiresAtMs < this.clock.nowMs()) {
      this.slots.delete(key);
      return undefined;
    }
    return slot;
  }

  private evictionVersion(key: string): string | null {
    const e = this.evictions.get(key);
    if (!e) return null;
    if (e.untilMs < this.clock.nowMs()) {
      this.evictions.delete(key);
      return null;
    }
    return e.version;
  }

  private newVersion(): string {
    this.nextVersion += 1;
    return this.nextVersion.toString(36);
  }
}
