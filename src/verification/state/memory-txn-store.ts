import { Clock } from '../../kernel/clock';
import { TxnClaim, TxnStore } from '../ports/state-store';

/** One txn_id's record: claimed (no outcome yet) or answered. */
export interface TxnRecord {
  readonly fingerprint: string;
  readonly outcome?: string;
  readonly expiresAtMs: number;
}

const SWEEP_PER_CALL = 8;

/*
 * What a record costs beyond its strings' characters: the Map entry (up to twice over while
 * the table has just doubled), the record object, its number, the strings' headers. Measured
 * 200-240 bytes (scripts/degraded-memory.ts, docs/redis.md); rounded up so that the estimate
 * stays above the heap really used.
 */
export const RECORD_OVERHEAD_BYTES = 300;

/**
 * txn_id records in process memory. Claims are atomic because JavaScript runs them to
 * completion. Bounded: expired records are swept from the old end as new ones arrive;
 * past maxEntries the oldest record goes (reported through onEvict). The fallback store
 * refuses new txn_ids before that point (full, bytes), so in degraded mode nothing answered
 * is ever evicted.
 */
export class MemoryTxnStore implements TxnStore {
  private readonly records = new Map<string, TxnRecord>();
  private bytesUsed = 0;

  constructor(private readonly clock: Clock, private readonly maxEntries: number, private readonly onEvict: () => void = () => {}) {}

  async claim(key: string, fingerprint: string, ttlS: number): Promise<TxnClaim> {
    const now = this.clock.nowMs();
    this.sweep(now);
    const rec = this.records.get(key);
    if (rec && rec.expiresAtMs > now) {
      return rec.outcome === undefined
        ? { status: 'in-flight', fingerprint: rec.fingerprint }
        : { status: 'done', fingerprint: rec.fingerprint, outcome: rec.outcome };
    }
    this.put(key, { fingerprint, expiresAtMs: now + ttlS * 1000 });
    return { status: 'claimed' };
  }

  async complete(key: string, fingerprint: string, outcome: string, ttlS: number): Promise<void> {
    const rec = this.records.get(key);
    if (rec && rec.fingerprint !== fingerprint) return;
    this.put(key, { fingerprint, outcome, expiresAtMs: this.clock.nowMs() + ttlS * 1000 });
  }

  async release(key: string, fingerprint: string): Promise<void> {
    const rec = this.records.get(key);
    if (rec && rec.fingerprint === fingerprint && rec.outcome === undefined) this.remove(key, rec);
  }

  /** The live record of a txn_id, if any: what the outage journal replays. */
  peek(key: string): TxnRecord | undefined {
    const rec = this.records.get(key);
    return rec && rec.expiresAtMs > this.clock.nowMs() ? rec : undefined;
  }

  get size(): number {
    return this.records.size;
  }

  /** Estimated heap held by the records (RECORD_OVERHEAD_BYTES plus one byte a character). */
  get bytes(): number {
    return this.bytesUsed;
  }

  /** True when one more record would evict the oldest. */
  get full(): boolean {
    return this.records.size >= this.maxEntries;
  }

  private put(key: string, rec: TxnRecord): void {
    flatten(key);
    flatten(rec.fingerprint);
    if (rec.outcome !== undefined) flatten(rec.outcome);
    const old = this.records.get(key);
    if (old) this.remove(key, old);
    this.records.set(key, rec);
    this.bytesUsed += recordBytes(key, rec);
    while (this.records.size > this.maxEntries) {
      const oldest = this.records.keys().next().value as string;
      this.remove(oldest, this.records.get(oldest) as TxnRecord);
      this.onEvict();
    }
  }

  private remove(key: string, rec: TxnRecord): void {
    this.records.delete(key);
    this.bytesUsed -= recordBytes(key, rec);
  }

  private sweep(now: number): void {
    let n = 0;
    for (const [key, rec] of this.records) {
      if (n++ >= SWEEP_PER_CALL || rec.expiresAtMs > now) return;
      this.remove(key, rec);
    }
  }
}

/*
 * Keys and fingerprints arrive as template-literal concatenations, which V8 keeps as trees of
 * string pieces (a "cons string") that hold every piece alive: measured, a txn_id record took
 * 640 bytes with them and 360 flattened. Converting a string to a number flattens it in place
 * (the trick of the small flatstr package; hand-written, being one line, with no dependency).
 */
const flattened = { last: 0 };
function flatten(s: string): void {
  // Stored, so that an optimising compiler cannot drop the conversion as unused.
  flattened.last = Number(s);
}

function recordBytes(key: string, rec: TxnRecord): number {
  return RECORD_OVERHEAD_BYTES + key.length + rec.fingerprint.length + (rec.outcome?.length ?? 0);
}
