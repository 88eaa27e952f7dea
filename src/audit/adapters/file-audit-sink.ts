import { constants } from 'node:fs';
import { access, appendFile, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AuditRecord } from '../ports/audit-trail';
import { encodeRecord, monthBounds, monthOf } from './audit-record-codec';
import { AuditSink } from './audit-sink';

const DAY_MS = 86_400_000;
export const AUDIT_FILE = /^audit-(\d{4}-\d{2})\.jsonl$/;

/** The month file a record goes to: one append-only JSON-lines file per UTC month. */
export function auditFileName(month: string): string {
  return `audit-${month}.jsonl`;
}

/**
 * The embedded audit store (CONTRACT §9): append-only JSON lines under AUDIT_DIR, one file
 * per month so that retention deletes whole files, as PostgreSQL drops whole partitions.
 * Files are created 0600 in a 0700 directory: they hold full msisdns.
 */
export class FileAuditSink implements AuditSink {
  readonly kind = 'file';

  constructor(private readonly dir: string, private readonly retentionDays: number) {}

  /** JSON can hold any string: no record is ever refused for its content. */
  async write(records: readonly AuditRecord[]): Promise<AuditRecord[]> {
    const byMonth = new Map<string, string[]>();
    for (const r of records) {
      const m = monthOf(r.timeMs);
      const lines = byMonth.get(m) ?? [];
      lines.push(`${encodeRecord(r)}\n`);
      byMonth.set(m, lines);
    }
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    for (const [month, lines] of byMonth) {
      await appendFile(join(this.dir, auditFileName(month)), lines.join(''), { mode: 0o600 });
    }
    return [];
  }

  async ping(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await access(this.dir, constants.W_OK);
  }

  /** Deletes month files whose whole month lies before the retention cutoff. */
  async maintain(nowMs: number): Promise<void> {
    const cutoff = nowMs - this.retentionDays * DAY_MS;
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const name of names) {
      const m = AUDIT_FILE.exec(name);
      if (m && monthBounds(m[1]).endMs <= cutoff) await rm(join(this.dir, name), { force: true });
    }
  }

  async close(): Promise<void> {}
}
