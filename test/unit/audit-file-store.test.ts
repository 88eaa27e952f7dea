import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeRecord } from '../../src/audit/adapters/audit-record-codec';
import { AuditSink } from '../../src/audit/adapters/audit-sink';
import { AuditSpool } from '../../src/audit/adapters/audit-spool';
import { AuditRecordOutcome } from '../../src/audit/adapters/audit-metrics';
import { BufferedAuditTrail, AuditWriterSettings } from '../../src/audit/adapters/buffered-audit-trail';
import { FileAuditReader } from '../../src/audit/adapters/file-audit-reader';
import { FileAuditSink } from '../../src/audit/adapters/file-audit-sink';
import { AuditRecord } from '../../src/audit/ports/audit-trail';
import { uuidV7 } from '../../src/kernel/uuid-v7';
import { createLogger } from '../../src/observability/logger';

const DAY = 86_400_000;
let seq = 0;
function rec(timeMs = Date.UTC(2026, 10, 24), over: Partial<AuditRecord> = {}): AuditRecord {
  seq++;
  return {
    id: uuidV7(timeMs), timeMs, partner: 'bank', interface: 'legacy', operation: 'kyc', msisdn: '255712000001', code: '00000',
    httpStatus: 200, txnId: `t${seq}`, correlator: `c${seq}`, purpose: null, replayed: false, ...over,
  };
}

const dir = () => mkdtempSync(join(tmpdir(), 'vc-audit-unit-'));
const lines = (path: string) => readFileSync(path, 'utf8').trim().split('\n').filter(Boolean);
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('the embedded JSON-lines audit store', () => {
  it('when records are written, then each goes to its UTC month file, private to the service user', async () => {
    const d = dir();
    const sink = new FileAuditSink(d, 395);
    const a = rec(Date.UTC(2026, 9, 31, 23, 59));
    const b = rec(Date.UTC(2026, 10, 1, 0, 0));
    await sink.write([a, b]);
    await sink.write([rec(Date.UTC(2026, 10, 2))]);
    expect(readdirSync(d).sort()).toEqual(['audit-2026-10.jsonl', 'audit-2026-11.jsonl']);
    expect(lines(join(d, 'audit-2026-10.jsonl'))).toEqual([encodeRecord(a)]);
    expect(lines(join(d, 'audit-2026-11.jsonl'))).toHaveLength(2);
    expect(statSync(join(d, 'audit-2026-11.jsonl')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(lines(join(d, 'audit-2026-10.jsonl'))[0])).toMatchObject({ time: '2026-10-31T23:59:00.000Z', msisdn: '255712000001', http_status: 200 });
  });

  it('when all of a month is older than AUDIT_RETENTION_DAYS, then retention deletes its whole file', async () => {
    const d = dir();
    const sink = new FileAuditSink(d, 30);
    await sink.write([rec(Date.UTC(2026, 8, 15)), rec(Date.UTC(2026, 9, 20)), rec(Date.UTC(2026, 10, 20))]);
    await sink.maintain(Date.UTC(2026, 10, 24)); // cutoff 2026-10-25: September goes, October stays
    expect(readdirSync(d).sort()).toEqual(['audit-2026-10.jsonl', 'audit-2026-11.jsonl']);
    await sink.maintain(Date.UTC(2026, 11, 1) + 30 * DAY);
    expect(readdirSync(d)).toEqual([]);
  });

  it('when the reader is asked by number or for usage, then it answers both, skips torn lines and counts a record written twice once', async () => {
    const d = dir();
    const sink = new FileAuditSink(d, 395);
    const r1 = rec(Date.UTC(2026, 10, 2));
    const r2 = rec(Date.UTC(2026, 10, 3), { operation: 'sim_swap', code: '11111', httpStatus: 404, replayed: true });
    const other = rec(Date.UTC(2026, 10, 4), { msisdn: '255712000002', partner: 'shop' });
    await sink.write([r1, r2, other, r1]);
    appendFileSync(join(d, 'audit-2026-11.jsonl'), '{"id":"torn');
    const reader = new FileAuditReader(d);
    expect((await reader.byMsisdn('255712000001', 0, Date.UTC(2027, 0, 1))).map((r) => r.id)).toEqual([r1.id, r2.id]);
    expect((await reader.byMsisdn('255712000001', Date.UTC(2026, 10, 3), Date.UTC(2027, 0, 1))).map((r) => r.id)).toEqual([r2.id]);
    expect(await reader.usage('2026-11')).toEqual([
      { partner: 'bank', operation: 'kyc', code: '00000', httpStatus: 200, count: 1, replayed: 0 },
      { partner: 'bank', operation: 'sim_swap', code: '11111', httpStatus: 404, count: 1, replayed: 1 },
      { partner: 'shop', operation: 'kyc', code: '00000', httpStatus: 200, count: 1, replayed: 0 },
    ]);
    expect(await reader.usage('2026-11', 'shop')).toHaveLength(1);
    expect(await reader.usage('2026-12')).toEqual([]);
  });

  it('when records written under the former CAMARA operation names are read, then both questions show today\'s names and usage counts them with the new records', async () => {
    const d = dir();
    const sink = new FileAuditSink(d, 395);
    const at = Date.UTC(2026, 10, 5);
    const camara = { interface: 'camara' as const, txnId: null };
    const old = [rec(at, { ...camara, operation: 'check' }), rec(at + 1, { ...camara, operation: 'retrieve-date' }),
      rec(at + 2, { ...camara, operation: 'check-tenure' }), rec(at + 3, { ...camara, operation: 'device_swap' })];
    const current = rec(at + 4, { ...camara, operation: 'sim_swap.check', replayed: false });
    await sink.write([...old, current]);
    const reader = new FileAuditReader(d);
    expect((await reader.byMsisdn('255712000001', 0, Date.UTC(2027, 0, 1))).map((r) => r.operation))
      .toEqual(['sim_swap.check', 'sim_swap.retrieve-date', 'kyc.check-tenure', 'device_swap', 'sim_swap.check']);
    expect((await reader.usage('2026-11')).map((r) => [r.operation, r.count])).toEqual([
      ['device_swap', 1], ['kyc.check-tenure', 1], ['sim_swap.check', 2], ['sim_swap.retrieve-date', 1],
    ]);
    // The file itself is not rewritten: the mapping is the reader's.
    expect(lines(join(d, 'audit-2026-11.jsonl')).map((l) => (JSON.parse(l) as { operation: string }).operation))
      .toEqual(['check', 'retrieve-date', 'check-tenure', 'device_swap', 'sim_swap.check']);
  });
});

/** A store that can be switched off, and remembers what it took, in order. */
class SwitchableSink implements AuditSink {
  readonly kind = 'file';
  up = true;
  hang = false;
  /** How often the writer asked whether the store is back. */
  pings = 0;
  readonly taken: AuditRecord[] = [];
  async write(records: readonly AuditRecord[]): Promise<AuditRecord[]> {
    if (this.hang) await new Promise(() => {});
    if (!this.up) throw new Error('store down');
    this.taken.push(...records);
    return [];
  }
  async ping(): Promise<void> {
    this.pings++;
    if (!this.up) throw new Error('store down');
  }
  async maintain(): Promise<void> {
    if (!this.up) throw new Error('store down');
  }
  async close(): Promise<void> {}
}

function writer(sink: AuditSink, spoolPath: string, over: Partial<AuditWriterSettings> = {}) {
  const counts: Record<AuditRecordOutcome, number> = { written: 0, spooled: 0, replayed: 0, quarantined: 0, dropped: 0 };
  const trail = new BufferedAuditTrail({
    sink, spool: new AuditSpool(spoolPath), quarantine: new AuditSpool(`${spoolPath}.quarantine`), logger: createLogger('silent'), clock: { nowMs: () => Date.now() },
    metrics: { auditRecords: (o, n) => { counts[o] += n; }, trackAuditBacklog() {} },
    settings: { batchMax: 10, flushMs: 5, bufferMax: 1000, writeTimeoutMs: 200, retryMs: 20, maintenanceMs: 3_600_000, startDeadlineMs: 1000, ...over },
  });
  return { trail, counts };
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await tick();
  }
}

describe('the audit writer: batches off the request path, spool and replay', () => {
  it('when records are recorded, then they are written in batches by size and by age', async () => {
    const sink = new SwitchableSink();
    const { trail, counts } = writer(sink, join(dir(), 'spool.jsonl'));
    await trail.start();
    for (let i = 0; i < 25; i++) void trail.record(rec());
    expect(sink.taken.length).toBe(0); // record() never writes itself
    await until(() => sink.taken.length === 25);
    expect(counts.written).toBe(25);
    await trail.close();
  });

  it('when the store goes down and comes back, then records go to the spool (degraded) and are replayed in order, once each, healthy again', async () => {
    const sink = new SwitchableSink();
    const spool = join(dir(), 'spool.jsonl');
    const { trail, counts } = writer(sink, spool);
    await trail.start();
    const sent: AuditRecord[] = [];
    const send = (n: number) => { for (let i = 0; i < n; i++) { const r = rec(); sent.push(r); void trail.record(r); } };
    send(5);
    await trail.flush();
    sink.up = false;
    send(30);
    await trail.flush();
    expect(trail.healthy()).toBe(false);
    expect(trail.mode()).toBe('degraded');
    expect(lines(spool)).toHaveLength(30);
    sink.up = true;
    send(7); // arrives while the spool is replayed: must come after it
    await until(() => trail.healthy());
    await trail.flush();
    expect(sink.taken.map((r) => r.id)).toEqual(sent.map((r) => r.id));
    // The 7 go to the spool while it still holds records, or straight to the store if the replay
    // had already emptied it when they arrived (a busy machine): in order and once, either way.
    expect(counts.spooled).toBeGreaterThanOrEqual(30);
    expect(counts).toEqual({ written: 42 - counts.spooled, spooled: counts.spooled, replayed: counts.spooled, quarantined: 0, dropped: 0 });
    expect(() => statSync(spool)).toThrow();
    await trail.close();
  });

  it('when the store hangs, then it is given up on after the write timeout and nothing is lost', async () => {
    const sink = new SwitchableSink();
    const spool = join(dir(), 'spool.jsonl');
    const { trail, counts } = writer(sink, spool, { writeTimeoutMs: 50 });
    await trail.start();
    sink.hang = true;
    for (let i = 0; i < 3; i++) void trail.record(rec());
    await trail.flush();
    expect(counts.spooled).toBe(3);
    sink.hang = false;
    await until(() => trail.healthy());
    expect(sink.taken).toHaveLength(3);
    await trail.close();
  });

  it('when even the spool fails, then records are counted as dropped', async () => {
    const sink = new SwitchableSink();
    const d = dir();
    const { trail, counts } = writer(sink, join(d, 'spool-dir', 'spool.jsonl'));
    await trail.start();
    // The spool's directory becomes a file: every append fails.
    rmSync(join(d, 'spool-dir'), { recursive: true });
    writeFileSync(join(d, 'spool-dir'), '');
    sink.up = false;
    for (let i = 0; i < 4; i++) void trail.record(rec());
    await trail.flush();
    expect(counts).toEqual({ written: 0, spooled: 0, replayed: 0, quarantined: 0, dropped: 4 });
    await trail.close();
  });

  it('when the buffer is full, then batches go to the spool, and at twice the bound records are dropped', async () => {
    const sink = new SwitchableSink();
    sink.hang = true;
    const { trail, counts } = writer(sink, join(dir(), 'spool.jsonl'), { bufferMax: 20, batchMax: 5, writeTimeoutMs: 60_000 });
    await trail.start();
    for (let i = 0; i < 45; i++) void trail.record(rec());
    expect(trail.healthy()).toBe(false);
    expect(counts.dropped).toBe(5);
    void trail.close();
  });

  it('when AUDIT_DIR cannot be used, then the start stops naming it', async () => {
    const d = dir();
    writeFileSync(join(d, 'file'), '');
    const { trail } = writer(new SwitchableSink(), join(d, 'file', 'spool.jsonl'));
    await expect(trail.start()).rejects.toThrow(`AUDIT_DIR ${join(d, 'file')} cannot be used for the audit spool`);
  });

  it('when an earlier run left a spool, then it is replayed at start', async () => {
    const spool = join(dir(), 'spool.jsonl');
    const old = [rec(), rec()];
    writeFileSync(spool, old.map((r) => `${encodeRecord(r)}\n`).join(''));
    const sink = new SwitchableSink();
    const { trail } = writer(sink, spool);
    await trail.start();
    expect(trail.mode()).toBe('degraded');
    await until(() => trail.healthy());
    expect(sink.taken.map((r) => r.id)).toEqual(old.map((r) => r.id));
    await trail.close();
  });

  it('when the store is down at start, then the trail is degraded at once and healthy again only once it answers', async () => {
    const sink = new SwitchableSink();
    sink.up = false;
    const { trail } = writer(sink, join(dir(), 'spool.jsonl'));
    await trail.start();
    expect(trail.healthy()).toBe(false);
    // Several retries (every retryMs) find the store still down: still degraded.
    const pinged = sink.pings;
    await until(() => sink.pings >= pinged + 3);
    expect(trail.healthy()).toBe(false);
    sink.up = true;
    await until(() => trail.healthy());
    await trail.close();
  });

  it('when close() is called, then what is buffered is written', async () => {
    const sink = new SwitchableSink();
    const { trail } = writer(sink, join(dir(), 'spool.jsonl'), { flushMs: 600_000, batchMax: 1000 });
    await trail.start();
    for (let i = 0; i < 12; i++) void trail.record(rec());
    expect(sink.taken).toHaveLength(0);
    await trail.close();
    expect(sink.taken).toHaveLength(12);
  });
});
