import { Cache, TxnStore } from '../../domain/ports/state-store';

/** The last thing done to a txn_id in memory while Redis was away; replaying it is idempotent. */
type TxnEntry =
  | { op: 'claim'; fingerprint: string; expiresAtMs: number }
  | { op: 'complete'; fingerprint: string; outcome: string; expiresAtMs: number }
  | { op: 'release'; fingerprint: string; expiresAtMs: number };

// A release may undo a claim made on Redis before the outage, whose TTL we no longer know:
// keep it as long as the longest in-flight TTL the config allows (TXN_IN_FLIGHT_TTL_S ≤ 3600).
const RELEASE_KEEP_MS = 3_600_000;
const BATCH = 256;

export interface ReplayTarget {
  cache: Cache;
  txns: TxnStore;
}

/**
 * What happened to state while Redis was unreachable, replayed into Redis when it returns, so
 * that a txn_id used during the outage stays used (a replay, or 409) on every instance
 * afterwards, and a SIM-swap eviction that could not reach Redis still happens.
 *
 * Replays go through the same scripts as live traffic: a claim is SET NX, a completion only
 * lands on a record of the same fingerprint. Where another instance wrote the same txn_id to
 * Redis meanwhile, Redis wins. Bounded: past maxEntries the oldest entries are dropped.
 */
export class OutageJournal {
  private readonly txns = new Map<string, TxnEntry>();
  private readonly evictions = new Set<string>();

  constructor(private readonly maxEntries: number, private readonly onOverflow: () => void) {}

  claimed(key: string, fingerprint: string, ttlS: number, nowMs: number): void {
    this.put(key, { op: 'claim', fingerprint, expiresAtMs: nowMs + ttlS * 1000 });
  }

  completed(key: string, fingerprint: string, outcome: string, ttlS: number, nowMs: number): void {
    this.put(key, { op: 'complete', fingerprint, outcome, expiresAtMs: nowMs + ttlS * 1000 });
  }

  released(key: string, fingerprint: string, nowMs: number): void {
    this.put(key, { op: 'release', fingerprint, expiresAtMs: nowMs + RELEASE_KEEP_MS });
  }

  evicted(keys: readonly string[]): void {
    for (const k of keys) {
      this.evictions.add(k);
      if (this.evictions.size > this.maxEntries) {
        this.evictions.delete(this.evictions.values().next().value as string);
        this.onOverflow();
      }
    }
  }

  clear(): void {
    this.txns.clear();
    this.evictions.clear();
  }

  get size(): number {
    return this.txns.size + this.evictions.size;
  }

  /** True while an eviction of this cache key has not reached Redis yet. */
  hasEviction(key: string): boolean {
    return this.evictions.has(key);
  }

  /** True while something done to this txn_id has not reached Redis yet. */
  hasTxn(key: string): boolean {
    return this.txns.has(key);
  }

  /** Writes one cache key's pending eviction (before live traffic reads or writes the key). */
  async settleEviction(key: string, cache: Cache): Promise<void> {
    if (!this.evictions.has(key)) return;
    await cache.delete([key]);
    this.evictions.delete(key);
  }

  /** Writes one txn_id's entry (before live traffic touches the txn_id on Redis). */
  async settleTxn(key: string, txns: TxnStore, nowMs: number): Promise<void> {
    const e = this.txns.get(key);
    if (!e) return;
    const ttlS = (e.expiresAtMs - nowMs) / 1000;
    if (ttlS > 0) await this.apply(txns, key, e, ttlS);
    // An entry replaced while this one was written stays for the next pass.
    if (this.txns.get(key) === e) this.txns.delete(key);
  }

  /**
   * Writes every entry to the target, a batch at a time. Rejects on the first failure,
   * keeping what was not written. Settling a key twice (here and on demand) is harmless:
   * every replay is idempotent.
   */
  async replay(target: ReplayTarget, nowMs: number, guard: <T>(p: Promise<T>) => Promise<T>): Promise<number> {
    let written = 0;
    const evictions = [...this.evictions];
    for (let i = 0; i < evictions.length; i += BATCH) {
      const batch = evictions.slice(i, i + BATCH);
      await Promise.all(batch.map((k) => guard(this.settleEviction(k, target.cache))));
      written += batch.length;
    }
    const keys = [...this.txns.keys()];
    for (let i = 0; i < keys.length; i += BATCH) {
      const batch = keys.slice(i, i + BATCH);
      await Promise.all(batch.map((k) => guard(this.settleTxn(k, target.txns, nowMs))));
      written += batch.length;
    }
    return written;
  }

  private apply(txns: TxnStore, key: string, e: TxnEntry, ttlS: number): Promise<unknown> {
    switch (e.op) {
      case 'claim':
        return txns.claim(key, e.fingerprint, ttlS);
      case 'complete':
        return txns.complete(key, e.fingerprint, e.outcome, ttlS);
      case 'release':
        return txns.release(key, e.fingerprint);
      default: {
        const never: never = e;
        throw new Error(`unknown journal entry ${JSON.stringify(never)}`);
      }
    }
  }

  private put(key: string, e: TxnEntry): void {
    // Re-inserting keeps Map order oldest-first, which is the order overflow drops in.
    this.txns.delete(key);
    this.txns.set(key, e);
    if (this.txns.size > this.maxEntries) {
      this.txns.delete(this.txns.keys().next().value as string);
      this.onOverflow();
    }
  }
}
