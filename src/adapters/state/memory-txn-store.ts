import { Clock } from '../../domain/ports/clock';
import { TxnClaim, TxnStore } from '../../domain/ports/state-store';

interface TxnRecord {
  fingerprint: string;
  outcome?: string;
  expiresAtMs: number;
}

const SWEEP_PER_CALL = 8;

/**
 * txn_id records in process memory. Claims are atomic because JavaScript runs them to
 * completion. Bounded: expired records are swept from the old end as new ones arrive;
 * past maxEntries the oldest record goes (reported through onEvict).
 */
export class MemoryTxnStore implements TxnStore {
  private readonly records = new Map<string, TxnRecord>();

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
    if (rec && rec.fingerprint === fingerprint && rec.outcome === undefined) this.records.delete(key);
  }

  get size(): number {
    return this.records.size;
  }

  private put(key: string, rec: TxnRecord): void {
    this.records.delete(key);
    this.records.set(key, rec);
    while (this.records.size > this.maxEntries) {
      this.records.delete(this.records.keys().next().value as string);
      this.onEvict();
    }
  }

  private sweep(now: number): void {
    let n = 0;
    for (const [key, rec] of this.records) {
      if (n++ >= SWEEP_PER_CALL || rec.expiresAtMs > now) return;
      this.records.delete(key);
    }
  }
}
