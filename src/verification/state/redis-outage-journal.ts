import { Cache, TxnStore } from '../ports/state-store';
import type { TxnRecord } from './memory-txn-store';

/** What a txn_id's entry replays; claims and answers are read from the memory store. */
type TxnEntry =
  | { op: 'claim'; fingerprint: string; expiresAtMs: number }
  | { op: 'complete'; fingerprint: string; outcome: string; expiresAtMs: number }
  | { op: 'release'; fingerprint: string; expiresAtMs: number };

/** A release: the one thing the memory store cannot show, since it deletes the claim. */
interface Release {
  fingerprint: string;
  expiresAtMs: number;
}

/** Where the journal reads claims and answers made during the outage (MemoryTxnStore). */
export interface TxnSource {
  peek(key: string): TxnRecord | undefined;
}

// A release may undo a claim made on Redis before the outage, whose TTL we no longer know:
// keep it as long as the longest in-flight TTL the config allows (TXN_IN_FLIGHT_TTL_S ≤ 3600).
const RELEASE_KEEP_MS = 3_600_000;
const BATCH = 256;
/*
 * Estimated heap of one journaled txn_id (a Map entry keyed by the memory store's own key
 * string, a small integer: 24 bytes, up to twice that while the table has just doubled) and
 * of one release (its object on top).
 */
export const JOURNAL_KEY_BYTES = 56;
const RELEASE_BYTES = 100;

export interface ReplayTarget {
  cache: Cache;
  txns: TxnStore;
}

/**
 * What happened to state while Redis was unreachable, replayed into Redis when it returns, so
 * that a txn_id used during the outage stays used (a replay, or 409) on every instance
 * afterwards, and a SIM-swap eviction that could not reach Redis still happens.
 *
 * For a txn_id the journal keeps only its key: the claim or answer itself is read from the
 * memory store when it is replayed, so each record is held once (a second copy doubled
 * degraded mode's memory). Releases, which delete the memory record, are kept here.
 *
 * Replays go through the same scripts as live traffic: a claim is SET NX, a completion only
 * lands on a record of the same fingerprint. Where another instance wrote the same txn_id to
 * Redis meanwhile, Redis wins. txn_ids are bounded by the fallback's memory budget (it refuses
 * new ones when full); evictions by maxEvictions, past which the oldest are dropped.
 */
export class OutageJournal {
  /** Journaled txn_ids, each with the sequence number of its last change. */
  private readonly txns = new Map<string, number>();
  private readonly releases = new Map<string, Release>();
  private readonly evictions = new Set<string>();
  private seq = 0;
  private releaseBytes = 0;

  constructor(private readonly source: TxnSource, private readonly maxEvictions: number, private readonly onOverflow: () => void) {}

  claimed(key: string): void {
    this.touch(key);
  }

  completed(key: string): void {
    this.touch(key);
  }

  released(key: string, fingerprint: string, nowMs: number): void {
    this.touch(key);
    this.releases.set(key, { fingerprint, expiresAtMs: nowMs + RELEASE_KEEP_MS });
    this.releaseBytes += RELEASE_BYTES + key.length + fingerprint.length;
  }

  evicted(keys: readonly string[]): void {
    for (const k of keys) {
      this.evictions.add(k);
      if (this.evictions.size > this.maxEvictions) {
        this.evictions.delete(this.evictions.values().next().value as string);
        this.onOverflow();
      }
    }
  }

  clear(): void {
    this.txns.clear();
    this.releases.clear();
    this.releaseBytes = 0;
    this.evictions.clear();
  }

  get size(): number {
    return this.txns.size + this.evictions.size;
  }

  /** Estimated heap the journal holds for txn_ids (evictions, few and short, are not counted). */
  get bytes(): number {
    return this.txns.size * JOURNAL_KEY_BYTES + this.releaseBytes;
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
    const seq = this.txns.get(key);
    if (seq === undefined) return;
    const e = this.entryOf(key, nowMs);
    if (e) await this.apply(txns, key, e, (e.expiresAtMs - nowMs) / 1000);
    // A txn_id changed while this was written stays for the next pass.
    if (this.txns.get(key) === seq) {
      this.txns.delete(key);
      this.dropRelease(key);
    }
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

  /** The latest thing done to the txn_id, still worth writing; undefined once it has expired. */
  private entryOf(key: string, nowMs: number): TxnEntry | undefined {
    const rec = this.source.peek(key);
    if (rec) {
      return rec.outcome === undefined
        ? { op: 'claim', fingerprint: rec.fingerprint, expiresAtMs: rec.expiresAtMs }
        : { op: 'complete', fingerprint: rec.fingerprint, outcome: rec.outcome, expiresAtMs: rec.expiresAtMs };
    }
    const rel = this.releases.get(key);
    return rel && rel.expiresAtMs > nowMs ? { op: 'release', ...rel } : undefined;
  }

  private touch(key: string): void {
    // Re-inserting keeps Map order oldest-first. A claim or answer after a release supersedes it.
    this.txns.delete(key);
    // Kept a small integer (no heap number per entry); equality only has to see a change.
    this.seq = (this.seq + 1) & 0x3fffffff;
    this.txns.set(key, this.seq);
    this.dropRelease(key);
  }

  private dropRelease(key: string): void {
    const rel = this.releases.get(key);
    if (!rel) return;
    this.releases.delete(key);
    this.releaseBytes -= RELEASE_BYTES + key.length + rel.fingerprint.length;
  }
}
