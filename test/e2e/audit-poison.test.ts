import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeRecord } from '../../src/audit/adapters/audit-record-codec';
import { AuditRecord } from '../../src/audit/ports/audit-trail';
import { uuidV7 } from '../../src/kernel/uuid-v7';
import { auditRows, eventually } from '../support/audit-db';
import { startCamaraHarness } from '../support/camara-harness';
import { Harness, startHarness } from '../support/harness';
import { PostgresProcess, startPostgres } from '../../tools/process-kit/postgres-server';
import { DEMO, signedQuery, txnId } from '../support/signing';

/*
 * One record PostgreSQL refuses (text with a NUL in it) must never stall the audit trail: the
 * value is made safe where it enters the record, and a batch the store refuses for its content
 * is written record by record, the refused one quarantined, the store reported up.
 */

const FAST = { AUDIT_FLUSH_MS: '50', AUDIT_WRITE_TIMEOUT_MS: '1000', AUDIT_RETRY_MS: '200' };
const CHECK = '/sim-swap/v2/check';

async function counter(url: string, outcome: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = new RegExp(`^verify_audit_records_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(text);
  return m ? Number(m[1]) : NaN;
}

async function readyAudit(url: string): Promise<unknown> {
  return ((await (await fetch(`${url}/readyz`)).json()) as { audit?: unknown }).audit;
}

async function legacyTraffic(h: Harness, n: number): Promise<string[]> {
  const correlators: string[] = [];
  for (let i = 0; i < n; i++) {
    const c = randomUUID();
    const r = await h.post('kyc', { txn_id: txnId('p'), msisdn: '255712000001' }, { query: signedQuery(DEMO), headers: { 'x-correlator': c } });
    expect(r.status).toBe(200);
    correlators.push(c);
  }
  return correlators;
}

describe('audit trail: one poison record never stalls it', () => {
  let pg: PostgresProcess;
  beforeAll(async () => { pg = await startPostgres(); });
  afterAll(async () => { await pg?.destroy(); });

  it('when a CAMARA token\'s purpose claim holds a NUL, control characters and bidirectional controls (U+202E, U+2066-2069), then the call is recorded with them escaped and every later record reaches PostgreSQL', async () => {
    const c = await startCamaraHarness({ env: { AUDIT_DATABASE_URL: pg.url, ...FAST } });
    try {
      const token = await c.tokens.external({ purpose: 'dpv:Fraud\u0000Prevention\n\u001b[2J\u202eesreveR\u2066x\u2069' });
      const poisonCorrelator = randomUUID();
      const r = await c.call(CHECK, { phoneNumber: '+255712000001' }, { token, headers: { 'x-correlator': poisonCorrelator } });
      expect(r.status).toBe(200);
      const later = await legacyTraffic(c.h, 3);
      await c.h.server.audit.flush();
      const rows = await auditRows(pg);
      expect(rows.map((row) => row.correlator).sort()).toEqual([poisonCorrelator, ...later].sort());
      expect(rows.find((row) => row.correlator === poisonCorrelator)?.purpose).toBe('dpv:Fraud\\u0000Prevention\\u000a\\u001b[2J\\u202eesreveR\\u2066x\\u2069');
      expect(await readyAudit(c.url)).toBe('postgres');
      expect(await counter(c.url, 'spooled')).toBe(0);
    } finally {
      await c.close();
    }
  }, 60_000);

  it('when the spool holds a record PostgreSQL refuses, then it is quarantined and counted, the records around it are written, and the trail is healthy', async () => {
    await pg.query('DROP TABLE IF EXISTS audit_records; DROP TABLE IF EXISTS audit_migrations');
    const dir = mkdtempSync(join(tmpdir(), 'vc-audit-poison-'));
    const now = Date.now();
    const rec = (correlator: string, purpose: string | null): AuditRecord => ({
      id: uuidV7(now), timeMs: now, partner: 'demo-bank', interface: 'camara', operation: 'check', msisdn: '255712000001',
      code: '00000', httpStatus: 200, txnId: null, correlator, purpose, replayed: false,
    });
    const before = rec('before-poison', null);
    const poison = rec('the-poison', 'dpv:\u0000');
    const after = rec('after-poison', null);
    writeFileSync(join(dir, 'audit-spool.jsonl'), [before, poison, after].map((x) => `${encodeRecord(x)}\n`).join(''), { mode: 0o600 });
    const h = await startHarness({ env: { AUDIT_DATABASE_URL: pg.url, AUDIT_DIR: dir, ...FAST } });
    try {
      await eventually(async () => expect(await readyAudit(h.url)).toBe('postgres'), 20_000);
      const later = await legacyTraffic(h, 2);
      await h.server.audit.flush();
      expect((await auditRows(pg)).map((r) => r.correlator).sort()).toEqual(['after-poison', 'before-poison', ...later].sort());
      expect(await counter(h.url, 'quarantined')).toBe(1);
      expect(await counter(h.url, 'replayed')).toBe(2);
      expect(await counter(h.url, 'dropped')).toBe(0);
      const quarantined = readFileSync(join(dir, 'audit-quarantine.jsonl'), 'utf8').trim().split('\n');
      expect(quarantined.map((l) => (JSON.parse(l) as { correlator: string }).correlator)).toEqual(['the-poison']);
    } finally {
      await h.close();
    }
  }, 60_000);

  it('when tokens carry arbitrary strings as their purpose claim, then no call gets a 5xx and every answered call reaches PostgreSQL, the trail healthy', async () => {
    await pg.query('DROP TABLE IF EXISTS audit_records; DROP TABLE IF EXISTS audit_migrations');
    const c = await startCamaraHarness({ env: { AUDIT_DATABASE_URL: pg.url, ...FAST } });
    try {
      // Any code unit, lone surrogates and NUL included, as an external issuer would pass them on.
      const unit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
      const purposeArb = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit, maxLength: 300 }),
        fc.constantFrom('\u0000', 'dpv:\u0000\u0000', '\ud800', '\udfff\ud800', '\u001b]0;pwned\u0007', 'x'.repeat(256)));
      const answered: string[] = [];
      await fc.assert(fc.asyncProperty(purposeArb, async (purpose) => {
        const correlator = randomUUID();
        const token = await c.tokens.external({ purpose });
        const r = await c.call(CHECK, { phoneNumber: '+255712000001' }, { token, headers: { 'x-correlator': correlator } });
        expect(r.status).toBeLessThan(500);
        if (r.status === 200) answered.push(correlator);
      }), { numRuns: 60 });
      await c.h.server.audit.flush();
      const recorded = new Set((await auditRows(pg)).map((row) => row.correlator));
      expect(answered.filter((x) => !recorded.has(x))).toEqual([]);
      expect(answered.length).toBeGreaterThan(30);
      expect(await readyAudit(c.url)).toBe('postgres');
      expect(await counter(c.url, 'spooled')).toBe(0);
      expect(await counter(c.url, 'quarantined')).toBe(0);
    } finally {
      await c.close();
    }
  }, 90_000);
});
