import { constants } from 'node:fs';
import { access, appendFile, mkdir, open, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AuditRecord } from '../ports/audit-trail';
import { decodeRecord, encodeRecord } from './audit-record-codec';

const READ_BYTES = 1 << 20;

export interface SpoolChunk {
  records: AuditRecord[];
  /** Lines that could not be read back (a line torn by a crash mid-append). */
  unreadable: number;
  /** Where the next chunk starts. */
  nextOffset: number;
}

/**
 * The local spool: records the audit store could not take, appended in order and read back
 * in the same order. The caller serialises every call (one at a time), so appends and reads
 * never interleave. Holds full msisdns: it lives under AUDIT_DIR, mode 0600.
 */
export class AuditSpool {
  constructor(readonly path: string) {}

  /** At start: the spool's directory must exist (it is created) and be writable, or the service does not start. */
  async check(): Promise<void> {
    const dir = dirname(this.path);
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await access(dir, constants.W_OK);
    } catch (err) {
      throw new Error(`AUDIT_DIR ${dir} cannot be used for the audit spool (${(err as NodeJS.ErrnoException).code ?? 'error'})`, { cause: err });
    }
  }

  /** Bytes in the spool; 0 when there is none. */
  async size(): Promise<number> {
    try {
      return (await stat(this.path)).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw err;
    }
  }

  async append(records: readonly AuditRecord[]): Promise<void> {
    if (records.length === 0) return;
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    await appendFile(this.path, records.map((r) => `${encodeRecord(r)}\n`).join(''), { mode: 0o600 });
  }

  /** Up to `max` records from `offset`, ending on a whole line. */
  async read(offset: number, max: number): Promise<SpoolChunk> {
    const fh = await open(this.path, 'r');
    try {
      const buf = Buffer.alloc(READ_BYTES);
      const { bytesRead } = await fh.read(buf, 0, READ_BYTES, offset);
      const text = buf.subarray(0, bytesRead).toString('utf8');
      const records: AuditRecord[] = [];
      let unreadable = 0;
      let pos = 0;
      while (records.length < max) {
        const nl = text.indexOf('\n', pos);
        if (nl < 0) break;
        const rec = decodeRecord(text.slice(pos, nl));
        if (rec) records.push(rec);
        else unreadable++;
        pos = nl + 1;
      }
      if (pos === 0 && bytesRead > 0 && bytesRead < READ_BYTES) {
        // A last line without its newline: torn by a crash mid-append; skip it.
        return { records, unreadable: unreadable + 1, nextOffset: offset + bytesRead };
      }
      return { records, unreadable, nextOffset: offset + Buffer.byteLength(text.slice(0, pos)) };
    } finally {
      await fh.close();
    }
  }

  async clear(): Promise<void> {
    await rm(this.path, { force: true });
  }
}
