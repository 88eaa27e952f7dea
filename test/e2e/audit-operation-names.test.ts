import { appendFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeRecord } from '../../src/audit/adapters/audit-record-codec';
import { auditFileName } from '../../src/audit/adapters/file-audit-sink';
import { CAMARA_AUDIT_OPERATIONS } from '../../src/audit/audit-operation';
import { AuditRecord } from '../../src/audit/ports/audit-trail';
import { uuidV7 } from '../../src/kernel/uuid-v7';
import { PostgresProcess, startPostgres } from '../../tools/process-kit/postgres-server';
import { runCommand } from '../../tools/process-kit/child-process';
import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { gql } from '../support/graphql-client';
import { DEMO, signedQuery, txnId } from '../support/signing';

/*
 * One naming of operations in audit and usage for every interface (docs/audit.md, "Operation
 * names"): the registry operation, then for a CAMARA call a dot and the CAMARA operation. Every
 * CAMARA operation is called once, beside a legacy and a GraphQL lookup, and records stored
 * under the former names are read by the built CLI, on PostgreSQL and on the JSON-lines files.
 */

const CLI = join(__dirname, '../../dist/src/cli/main.js');
const month = () => new Date().toISOString().slice(0, 7);

/** Every CAMARA operation: route, body, and the name its record must carry. */
const CAMARA_CALLS = [
  ['/sim-swap/v2/check', { phoneNumber: '+255712000006' }, 'sim_swap.check'],
  ['/sim-swap/v2/retrieve-date', { phoneNumber: '+255712000006' }, 'sim_swap.retrieve-date'],
  ['/kyc-tenure/v0.2/check-tenure', { phoneNumber: '+255712000001', tenureDate: '2024-01-01' }, 'kyc.check-tenure'],
  ['/kyc-match/v0.4/match', { phoneNumber: '+255712000011', givenName: 'José' }, 'kyc_match.match'],
  ['/device-swap/v1/retrieve-date', { phoneNumber: '+255712000011' }, 'device_swap.retrieve-date'],
  ['/device-swap/v1/check', { phoneNumber: '+255712000011' }, 'device_swap.check'],
  ['/call-forwarding-signal/v0.4/unconditional-call-forwardings', { phoneNumber: '+255712000012' }, 'call_forwarding.unconditional-call-forwardings'],
  ['/call-forwarding-signal/v0.4/call-forwardings', { phoneNumber: '+255712000012' }, 'call_forwarding.call-forwardings'],
  ['/number-recycling/v0.2/check', { phoneNumber: '+255712000015', specifiedDate: '2024-01-01' }, 'number_recycling.check'],
  ['/kyc-age-verification/v0.2/verify', { phoneNumber: '+255712000011', ageThreshold: 18 }, 'age_verification.verify'],
] as const;

/** What earlier versions stored for CAMARA calls, all about one number not otherwise asked about. */
const OLD_NUMBER = '255712000014';
const FORMER_NAMES = ['check', 'retrieve-date', 'check-tenure', 'kyc_match', 'number_recycling', 'device_swap', 'call_forwarding'];

function oldRecords(): AuditRecord[] {
  const now = Date.now();
  return FORMER_NAMES.map((operation, i) => ({
    id: uuidV7(now + i), timeMs: now + i, partner: 'demo-bank', interface: 'camara', operation, msisdn: OLD_NUMBER,
    code: '00000', httpStatus: 200, txnId: null, correlator: `old-${i}`, purpose: null, replayed: false,
  }));
}

async function cli(args: string[], env: Record<string, string>): Promise<string> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first (npm test does)`);
  const r = await runCommand(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...env } });
  if (r.code !== 0) throw new Error(`verify-customer ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** The usage CSV's (operation, count) pairs for demo-bank's successes. */
const successes = (csv: string) => csv.trim().split('\n').slice(1).map((l) => l.split(','))
  .filter((c) => c[1] === 'demo-bank' && c[3] === '00000').map((c) => `${c[2]} ${c[5]}`);

interface Store { name: string; start(): Promise<{ env: Record<string, string>; insertOld(records: AuditRecord[]): Promise<void>; stop(): Promise<void> }> }

const STORES: Store[] = [
  {
    name: 'PostgreSQL',
    start: async () => {
      const pg: PostgresProcess = await startPostgres();
      return {
        env: { AUDIT_DATABASE_URL: pg.url },
        insertOld: async (records) => {
          for (const r of records) {
            await pg.query(`INSERT INTO audit_records (id, time, partner, interface, operation, msisdn, code, http_status, txn_id, correlator, purpose, replayed)
              VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
            [r.id, new Date(r.timeMs), r.partner, r.interface, r.operation, r.msisdn, r.code, r.httpStatus, r.txnId, r.correlator, r.purpose, r.replayed]);
          }
        },
        stop: () => pg.destroy(),
      };
    },
  },
  {
    name: 'the JSON-lines files',
    start: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'vc-audit-names-'));
      return {
        env: { AUDIT_DIR: dir },
        insertOld: async (records) => {
          for (const r of records) appendFileSync(join(dir, auditFileName(month())), `${encodeRecord(r)}\n`);
        },
        stop: async () => undefined,
      };
    },
  },
];

describe.each(STORES)('audit and usage operation names, on $name', (store) => {
  let c: CamaraHarness;
  let env: Record<string, string>;
  let stopStore: () => Promise<void>;
  beforeAll(async () => {
    const s = await store.start();
    env = s.env;
    stopStore = () => s.stop();
    c = await startCamaraHarness({ env });
    const token = await c.tokens.twoLegged({});
    for (const [path, body] of CAMARA_CALLS) expect({ path, status: (await c.call(path, body, { token })).status }).toEqual({ path, status: 200 });
    expect((await c.h.post('kyc', { txn_id: txnId('n'), msisdn: '255712000002' }, { query: signedQuery(DEMO) })).status).toBe(200);
    expect((await gql(c.h, '{ signals(msisdns: ["255712000013"]) { deviceSwap { latestDeviceChangeAt } } }')).status).toBe(200);
    await c.h.server.audit.flush();
    await s.insertOld(oldRecords());
  });
  afterAll(async () => {
    await c?.close();
    await stopStore?.();
  });

  it('when the declarations are read, then the operations called here are every one they declare (a new operation must be added here)', () => {
    expect(CAMARA_CALLS.map(([, , name]) => name).sort()).toEqual([...CAMARA_AUDIT_OPERATIONS].sort());
    expect(CAMARA_CALLS.map(([path, , name]) => [path.split('/').pop(), name.split('.')[1]]).every(([a, b]) => a === b)).toBe(true);
  });

  it('when every CAMARA operation, a legacy KYC and a GraphQL signal are answered, then usage names each registry operation, and each CAMARA operation after it', async () => {
    const rows = successes(await cli(['usage', '--month', month(), '--csv'], env));
    for (const [, , name] of CAMARA_CALLS) expect(rows).toContainEqual(expect.stringMatching(new RegExp(`^${name.replace('.', '\\.')} \\d+$`)));
    expect(rows).toContain('kyc 1');
    expect(rows).toContain('device_swap 2'); // the GraphQL signal, and the former CAMARA record that cannot say which operation
  });

  it('when records stored under the former names are read, then audit shows today\'s names and usage counts them with the new records', async () => {
    const out = await cli(['audit', '--msisdn', OLD_NUMBER], env);
    const operations = out.trim().split('\n').slice(3).map((l) => l.split(/\s{2,}/)[3]);
    expect(operations).toEqual([
      'sim_swap.check', 'sim_swap.retrieve-date', 'kyc.check-tenure', 'kyc_match.match', 'number_recycling.check', 'device_swap', 'call_forwarding',
    ]);
    const rows = successes(await cli(['usage', '--month', month(), '--csv'], env));
    expect(rows.filter((r) => !r.startsWith('device_swap ') && !r.startsWith('call_forwarding ') && r !== 'kyc 1').sort()).toEqual([
      'age_verification.verify 1', 'call_forwarding.call-forwardings 1', 'call_forwarding.unconditional-call-forwardings 1', 'device_swap.check 1', 'device_swap.retrieve-date 1',
      'kyc.check-tenure 2', 'kyc_match.match 2', 'number_recycling.check 2', 'sim_swap.check 2', 'sim_swap.retrieve-date 2',
    ]);
    expect(rows).toContain('call_forwarding 1');
  });
});
