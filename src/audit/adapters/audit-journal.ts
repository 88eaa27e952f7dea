import { FileHandle, open, readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AuditRecord } from '../ports/audit-trail';
import { decodeRecord, encodeRecord } from './audit-record-codec';

const PREFIX = 'audit-journal-';
const SUFFIX = '.jsonl';
/** A segment holding this many records is closed and a new one begun, so acknowledged ones can be deleted. */
const SEGMENT_RECORDS = 5000;

interface Segment {
  path: string;
  fh?: FileHandle;
  /** Records appended to it. */
  records: number;
  /** Of those, how many the store (or the spool) has not yet taken. */
  pending: number;
}

/**
 * The write-ahead journal of answered requests: a record is appended here before its answer is
 * sent, so that a process killed mid-flight (SIGKILL, OOM) loses nothing it answered. Appends
 * are grouped: every record of one event-loop turn goes out in one write, one turn at a time.
 * No fsync: the write reaches the kernel, which keeps it through a process crash but not
 * through a machine crash (docs/audit.md). Records live in segment files; a segment is deleted
 * once every record in it has been written to the store or the spool (ack). At start, the
 * segments an earlier run left are read back (recover) and handed to the spool for replay; the
 * store ignores ids it already has, so a crash between write and delete doubles nothing.
 *
 * Hand-written: no maintained library offers an append-grouped journal on a plain file.
 */
export class AuditJournal {
  private queue: { seg: Segment; line: string; done: () => void }[] = [];
  private scheduled = false;
  /** Every file operation, one after another: appends, rotations and deletions never interleave. */
  private io: Promise<void> = Promise.resolve();
  private current: Segment | undefined;
  private readonly segmentOf = new Map<string, Segment>();
  private seq = 0;

  constructor(private readonly dir: string, private readonly onError: (err: Error) => void) {}

  /** Resolves once the record is in the journal file (or the write failed, reported through onError); never rejects. */
  append(record: AuditRecord): Promise<void> {
    const seg = this.segmentForAppend();
    seg.records++;
    seg.pending++;
    this.segmentOf.set(record.id, seg);
    return new Promise((resolve) => {
      this.queue.push({ seg, line: `${encodeRecord(record)}\n`, done: resolve });
      if (!this.scheduled) {
        this.scheduled = true;
        // One write per turn of the event loop, for every record recorded in it.
        setImmediate(() => this.writeGroup());
      }
    });
  }

  /** The store or the spool has these records: a segment none of whose records are pending any more is deleted. */
  ack(records: readonly AuditRecord[]): void {
    for (const r of records) {
      const seg = this.segmentOf.get(r.id);
      if (!seg) continue;
      this.segmentOf.delete(r.id);
      seg.pending--;
      if (seg.pending === 0 && (seg !== this.current || seg.records >= SEGMENT_RECORDS)) this.retire(seg);
    }
  }

  /** What an earlier run left: its records (to replay), how many lines could not be read (a torn last line), removed from disk. */
  async recover(): Promise<{ records: AuditRecord[]; unreadable: number; files: string[] }> {
    const names = (await readdir(this.dir).catch(() => [] as string[])).filter((n) => n.startsWith(PREFIX) && n.endsWith(SUFFIX)).sort();
    const records: AuditRecord[] = [];
    let unreadable = 0;
    for (const name of names) {
      for (const line of (await readFile(join(this.dir, name), 'utf8')).split('\n')) {
        if (line === '') continue;
        const r = decodeRecord(line);
        if (r) records.push(r);
        else unreadable++;
      }
    }
    return { records, unreadable, files: names.map((n) => join(this.dir, n)) };
  }

  /** Deletes recovered files once their records are safe elsewhere (the spool). */
  async discard(files: readonly string[]): Promise<void> {
    for (const f of files) await rm(f, { force: true });
  }

  /** Waits for queued appends; closes the open segment, deleting it when nothing in it is pending. */
  async close(): Promise<void> {
    const seg = this.current;
    this.current = undefined;
    if (seg) this.retire(seg, seg.pending === 0);
    await this.io;
  }

  private segmentForAppend(): Segment {
    if (!this.current || this.current.records >= SEGMENT_RECORDS) {
      if (this.current) this.retire(this.current, this.current.pending === 0);
      const path = join(this.dir, `${PREFIX}${Date.now()}-${process.pid}-${this.seq++}${SUFFIX}`);
      this.current = { path, records: 0, pending: 0 };
    }
    return this.current;
  }

  private writeGroup(): void {
    const group = this.queue;
    this.queue = [];
    this.scheduled = false;
    // Almost always one segment; two when a segment filled up within the turn.
    const bySegment = new Map<Segment, string[]>();
    for (const g of group) {
      const lines = bySegment.get(g.seg);
      if (lines) lines.push(g.line);
      else bySegment.set(g.seg, [g.line]);
    }
    this.io = this.io.then(async () => {
      try {
        for (const [seg, lines] of bySegment) {
          seg.fh ??= await open(seg.path, 'a', 0o600);
          await seg.fh.write(lines.join(''));
        }
      } catch (err) {
        this.onError(err as Error);
      } finally {
        for (const g of group) g.done();
      }
    });
  }

  /** Closes a segment's file; deletes it when all its records are acknowledged. */
  private retire(seg: Segment, remove = true): void {
    if (seg === this.current) this.current = undefined;
    this.io = this.io.then(async () => {
      try {
        await seg.fh?.close();
        seg.fh = undefined;
        if (remove && seg.pending === 0) await rm(seg.path, { force: true });
      } catch (err) {
        this.onError(err as Error);
      }
    });
  }
}
