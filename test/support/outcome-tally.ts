import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Counts what each class of input got ("400 11111", "431 closed", ...), so the figures in
 * docs/reliability.md come from a run anyone can repeat: with RELIABILITY_REPORT_DIR set, a
 * suite writes its tally there as JSON when it ends.
 */
export class OutcomeTally {
  private readonly counts = new Map<string, Map<string, number>>();
  private readonly slowest = new Map<string, number>();

  constructor(private readonly suite: string) {}

  record(inputClass: string, outcome: string, elapsedMs?: number): void {
    let c = this.counts.get(inputClass);
    if (!c) {
      c = new Map();
      this.counts.set(inputClass, c);
    }
    c.set(outcome, (c.get(outcome) ?? 0) + 1);
    if (elapsedMs !== undefined) this.slowest.set(inputClass, Math.max(this.slowest.get(inputClass) ?? 0, elapsedMs));
  }

  toJSON(): Record<string, { total: number; outcomes: Record<string, number>; slowestMs?: number }> {
    const out: Record<string, { total: number; outcomes: Record<string, number>; slowestMs?: number }> = {};
    for (const [k, c] of this.counts) {
      const outcomes = Object.fromEntries([...c].sort());
      out[k] = { total: [...c.values()].reduce((a, b) => a + b, 0), outcomes };
      const slow = this.slowest.get(k);
      if (slow !== undefined) out[k].slowestMs = Math.round(slow);
    }
    return out;
  }

  /** Writes <RELIABILITY_REPORT_DIR>/<suite>.json when that variable is set. */
  writeIfRequested(extra: Record<string, unknown> = {}): void {
    const dir = process.env.RELIABILITY_REPORT_DIR;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${this.suite}.json`), `${JSON.stringify({ ...extra, classes: this.toJSON() }, null, 2)}\n`);
  }
}
