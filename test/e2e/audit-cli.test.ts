import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { encodeRecord } from '../../src/audit/adapters/audit-record-codec';
import { auditFileName } from '../../src/audit/adapters/file-audit-sink';
import { uuidV7 } from '../../src/kernel/uuid-v7';
import { auditPartnersFile } from '../support/audit-db';
import { Harness, startHarness } from '../support/harness';
import { PostgresProcess, startPostgres } from '../../tools/process-kit/postgres-server';
import { DEMO, DEMO_KYC_ONLY, signedQuery, txnId } from '../support/signing';

const CLI = join(__dirname, '../../dist/src/cli/main.js');
const run = promisify(execFile);

/** The built CLI as an operator runs it: a process, its environment, its stdout and exit code. */
async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first (npm test does)`);
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...env } });
    return { code: 0, out: stdout, err: stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout, err: err.stderr };
  }
}

const month = () => new Date().toISOString().slice(0, 7);

/** Known traffic: what usage must count. */
async function sendTraffic(h: Harness): Promise<void> {
  const post = (op: 'kyc' | 'sim_swap', msisdn: string, q = signedQuery(DEMO), txn = txnId('u')) =>
    h.post(op, { txn_id: txn, msisdn }, { query: q });
  for (let i = 0; i < 3; i++) expect((await post('kyc', '0712000005')).status).toBe(200);
  expect((await post('sim_swap', '255712000005')).status).toBe(200);
  const txn = txnId('r');
  expect((await post('sim_swap', '255712999998', undefined, txn)).status).toBe(404);
  expect((await post('sim_swap', '255712999998', undefined, txn)).status).toBe(404); // replay
  expect((await post('sim_swap', '255712000005', signedQuery(DEMO_KYC_ONLY))).status).toBe(403);
  expect((await post('kyc', '255712000005', signedQuery(DEMO_KYC_ONLY))).status).toBe(200);
  await h.server.audit.flush();
}

const EXPECTED_CSV = [
  'month,partner,operation,code,http_status,count,replayed',
  'M,demo-bank,kyc,00000,200,3,0',
  'M,demo-bank,sim_swap,00000,200,1,0',
  'M,demo-bank,sim_swap,11111,404,2,1',
  'M,demo-kyc-only,kyc,00000,200,1,0',
  'M,demo-kyc-only,sim_swap,11111,403,1,0',
];

function checkQuestions(env: () => Record<string, string>) {
  it('when audit --msisdn is asked with any spelling of the number, then it answers who asked about it', async () => {
    const r = await cli(['audit', '--msisdn', '+255712000005'], env());
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines[0]).toBe('6 record(s) for 255712000005');
    expect(lines[1]).toMatch(/^time\s+partner\s+interface\s+operation\s+code\s+status\s+purpose\s+txn_id\s+correlator\s+replayed$/);
    const rows = lines.slice(3);
    expect(rows.filter((l) => /demo-bank\s+legacy\s+kyc\s+00000\s+200\s+dpv:FraudPreventionAndDetection/.test(l))).toHaveLength(3);
    expect(rows.filter((l) => /demo-kyc-only\s+legacy\s+sim_swap\s+11111\s+403\s+-/.test(l))).toHaveLength(1);
    const none = await cli(['audit', '--msisdn', '0712000005', '--until', '2000-01-01'], env());
    expect(none.out.trim()).toBe('0 record(s) for 255712000005');
  });

  it('when usage --csv is asked, then it counts exactly the requests sent, per partner, operation and outcome', async () => {
    const r = await cli(['usage', '--month', month(), '--csv'], env());
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toEqual(EXPECTED_CSV.map((l) => l.replace(/^M,/, `${month()},`)));
    const one = await cli(['usage', '--month', month(), '--partner', 'demo-kyc-only'], env());
    expect(one.out).toContain(`usage for ${month()} (UTC), partner demo-kyc-only: 2 verification(s)`);
    expect(one.out).not.toContain('demo-bank');
  });

  it('when the arguments are bad, then the command refuses them with a usage error (exit 2)', async () => {
    for (const args of [['audit'], ['audit', '--msisdn', '12'], ['audit', '--msisdn', '0712000005', '--bogus'],
      ['audit', '--msisdn', '0712000005', '--since', 'yesterday'], ['usage', '--month', '2026-13']]) {
      const r = await cli(args, env());
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.err.length).toBeGreaterThan(0);
    }
  });
}

describe('the audit and usage CLI questions, against PostgreSQL', () => {
  let pg: PostgresProcess;
  let h: Harness;
  beforeAll(async () => {
    pg = await startPostgres();
    h = await startHarness({ env: { AUDIT_DATABASE_URL: pg.url, PARTNERS_FILE: auditPartnersFile() } });
    await sendTraffic(h);
  });
  afterAll(async () => {
    await h?.close();
    await pg?.destroy();
  });
  checkQuestions(() => ({ AUDIT_DATABASE_URL: pg.url }));
});

describe('the audit and usage CLI questions, against the embedded JSON-lines files', () => {
  let h: Harness;
  const dir = mkdtempSync(join(tmpdir(), 'vc-audit-files-'));
  beforeAll(async () => {
    h = await startHarness({ env: { AUDIT_DIR: dir, PARTNERS_FILE: auditPartnersFile() } });
    await sendTraffic(h);
  });
  afterAll(() => h?.close());
  checkQuestions(() => ({ AUDIT_DIR: dir }));
});

describe('the audit and usage CLI with hostile text in the store', () => {
  let h: Harness;
  const dir = mkdtempSync(join(tmpdir(), 'vc-audit-hostile-'));
  const FORMULA = '=HYPERLINK("http://evil.example","x")';
  const HOSTILE = { apiKey: 'hostile-key', secret: 'hostile-secret' };
  beforeAll(async () => {
    const partners = join(dir, 'partners.json');
    writeFileSync(partners, JSON.stringify({ partners: [
      { name: FORMULA, apiKey: HOSTILE.apiKey, secret: HOSTILE.secret, operations: ['kyc'] },
    ] }));
    h = await startHarness({ env: { AUDIT_DIR: dir, PARTNERS_FILE: partners } });
    const r = await h.post('kyc', { txn_id: txnId('x'), msisdn: '255712000007' }, { query: signedQuery(HOSTILE) });
    expect(r.status).toBe(200);
    await h.server.audit.flush();
    // A record as an earlier version (or another writer) could have stored it: raw control characters.
    const now = Date.now();
    appendFileSync(join(dir, auditFileName(month())), `${encodeRecord({
      id: uuidV7(now), timeMs: now, partner: 'shop\r', interface: 'camara', operation: 'check', msisdn: '255712000007',
      code: '00000', httpStatus: 200, txnId: null, correlator: 'c-1', purpose: 'dpv:x\n2026-01-01T00:00:00.000Z  forged\u001b[2J\u0007', replayed: false,
    })}\n`);
  });
  afterAll(() => h?.close());

  it('when a stored purpose holds a newline and escape sequences, then audit shows them as visible escapes, one line per record', async () => {
    const r = await cli(['audit', '--msisdn', '255712000007'], { AUDIT_DIR: dir });
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toBe('2 record(s) for 255712000007');
    expect(lines).toHaveLength(5); // count, header, rule, two records
    const controls = [...r.out].filter((c) => { const n = c.charCodeAt(0); return (n < 32 && n !== 10) || (n >= 0x7f && n <= 0x9f); });
    expect(controls).toEqual([]);
    expect(lines[4]).toContain('shop\\r');
    expect(lines[4]).toContain('dpv:x\\n2026-01-01T00:00:00.000Z  forged\\e[2J\\x07');
  });

  it('when a partner name starts with =, then usage --csv escapes it so a spreadsheet shows it as text, never runs it', async () => {
    const r = await cli(['usage', '--month', month(), '--csv'], { AUDIT_DIR: dir });
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toBe('month,partner,operation,code,http_status,count,replayed');
    expect(lines).toContain(`${month()},"'=HYPERLINK(""http://evil.example"",""x"")",kyc,00000,200,1,0`);
    // Stored under the name an earlier version wrote (camara `check`), shown under today's.
    expect(lines).toContain(`${month()},shop\\r,sim_swap.check,00000,200,1,0`);
    for (const l of lines) expect(l).not.toMatch(/(^|,)"?[=+\-@]/);
  });
});
