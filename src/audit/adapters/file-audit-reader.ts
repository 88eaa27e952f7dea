import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { AuditRecord } from '../ports/audit-trail';
import { decodeRecord, monthBounds } from './audit-record-codec';
import { AuditReader, AuditSearch, UsageBucketRow, UsageInterval, UsageRow, bucketStart, compareUsage, newestFirst } from './audit-reader';
import { AUDIT_FILE, auditFileName } from './file-audit-sink';

/**
 * Reads the embedded store's month files. A record replayed from the spool twice (a crash
 * between replay and spool removal) appears once: lines are deduplicated by id.
 */
export class FileAuditReader implements AuditReader {
  constructor(private readonly dir: string) {}

  async byMsisdn(msisdn: string, sinceMs: number, untilMs: number): Promise<AuditRecord[]> {
    const out: AuditRecord[] = [];
    for (const month of this.months()) {
      const { startMs, endMs } = monthBounds(month);
      if (endMs <= sinceMs || startMs >= untilMs) continue;
      await this.scan(month, (r) => {
        if (r.msisdn === msisdn && r.timeMs >= sinceMs && r.timeMs < untilMs) out.push(r);
      });
    }
    return out.sort((a, b) => a.timeMs - b.timeMs);
  }

  async search(q: AuditSearch): Promise<AuditRecord[]> {
    const out: AuditRecord[] = [];
    const before = q.before;
    await this.scanRange(q.sinceMs, q.untilMs, (r) => {
      if (q.msisdn !== undefined && r.msisdn !== q.msisdn) return;
      if (q.partner !== undefined && r.partner !== q.partner) return;
      if (before && (r.timeMs > before.timeMs || (r.timeMs === before.timeMs && r.id >= before.id))) return;
      out.push(r);
    });
    return out.sort(newestFirst).slice(0, q.limit);
  }

  async usageBuckets(sinceMs: number, untilMs: number, interval: UsageInterval, partner?: string): Promise<UsageBucketRow[]> {
    const rows = new Map<string, UsageBucketRow>();
    await this.scanRange(sinceMs, untilMs, (r) => {
      if (partner !== undefined && r.partner !== partner) return;
      const startMs = bucketStart(r.timeMs, interval);
      const key = JSON.stringify([startMs, r.partner, r.interface, r.operation, r.code, r.httpStatus]);
      const row = rows.get(key) ?? { startMs, partner: r.partner, interface: r.interface, operation: r.operation, code: r.code, httpStatus: r.httpStatus, count: 0, replayed: 0 };
      row.count++;
      if (r.replayed) row.replayed++;
      rows.set(key, row);
    });
    return [...rows.values()].sort((a, b) => a.startMs - b.startMs || compareUsage(a, b) || a.interface.localeCompare(b.interface));
  }

  async usage(month: string, partner?: string): Promise<UsageRow[]> {
    const rows = new Map<string, UsageRow>();
    await this.scan(month, (r) => {
      if (partner !== undefined && r.partner !== partner) return;
      const key = JSON.stringify([r.partner, r.operation, r.code, r.httpStatus]);
      const row = rows.get(key) ?? { partner: r.partner, operation: r.operation, code: r.code, httpStatus: r.httpStatus, count: 0, replayed: 0 };
      row.count++;
      if (r.replayed) row.replayed++;
      rows.set(key, row);
    });
    return [...rows.values()].sort(compareUsage);
  }

  async close(): Promise<void> {}

  private months(): string[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir).flatMap((n) => {
      const m = AUDIT_FILE.exec(n);
      return m ? [m[1]] : [];
    }).sort();
  }

  /** Every record within [sinceMs, untilMs), the month files that can hold one only. */
  private async scanRange(sinceMs: number, untilMs: number, each: (r: AuditRecord) => void): Promise<void> {
    for (const month of this.months()) {
      const { startMs, endMs } = monthBounds(month);
      if (endMs <= sinceMs || startMs >= untilMs) continue;
      await this.scan(month, (r) => {
        if (r.timeMs >= sinceMs && r.timeMs < untilMs) each(r);
      });
    }
  }

  private async scan(month: string, each: (r: AuditRecord) => void): Promise<void> {
    const path = join(this.dir, auditFileName(month));
    if (!existsSync(path)) return;
    const seen = new Set<string>();
    const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
    for await (const line of lines) {
      const r = decodeRecord(line);
      if (!r || seen.has(r.id)) continue;
      seen.add(r.id);
      each(r);
    }
  }
}
