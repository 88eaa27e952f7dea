import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileAuditReader } from '../../src/audit/adapters/file-audit-reader';
import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { GqlReply, QueryData, gql } from '../support/graphql-client';
import { signedQuery } from '../support/signing';

/*
 * A GraphQL request refused as a whole (permission, rate limit, a cost over the burst) is
 * refused before any per-number work and leaves at most one audit record, never one per number
 * or field (CONTRACT §2): one partner's refused requests cannot fill the audit trail, so with
 * AUDIT_FAIL_CLOSED=true another partner's lookups keep being answered.
 */

const KYC_ONLY = { apiKey: 'refused-key', secret: 'refused-secret' };
const LIMITED = { apiKey: 'limited-key', secret: 'limited-secret' };

const EVERY_SIGNAL = 'query($m: [String!]!) { signals(msisdns: $m) { simSwap { latestSimChangeAt } deviceSwap { latestDeviceChangeAt } callForwarding { unconditional } kyc { isValid } } }';
const KYC_BATCH = 'query($m: [String!]!) { verifyCustomers(msisdns: $m) { kyc { isValid } } }';
const BOTH_BATCH = 'query($m: [String!]!) { verifyCustomers(msisdns: $m) { kyc { isValid } simSwap { simSwapped } } }';

const numbers = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `2557130${String(from + i).padStart(5, '0')}`);

describe('GraphQL requests refused as a whole', () => {
  let c: CamaraHarness;
  let auditDir: string;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vc-gql-refusals-'));
    auditDir = join(dir, 'audit');
    const file = join(dir, 'partners.json');
    writeFileSync(file, JSON.stringify({
      partners: [
        { name: 'demo-bank', apiKey: 'demo-key', secret: 'demo-secret', operations: ['kyc', 'sim_swap'] },
        { name: 'refused', ...KYC_ONLY, operations: ['kyc'] },
        // Practically no refill: the bucket holds what the test spends.
        { name: 'limited', ...LIMITED, operations: ['kyc', 'sim_swap'], rateLimit: { perSecond: 0.001, burst: 100 } },
      ],
    }));
    c = await startCamaraHarness({ env: { PARTNERS_FILE: file, AUDIT_DIR: auditDir, AUDIT_FAIL_CLOSED: 'true' } });
  });
  afterAll(async () => {
    await c?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** partner's audit records this month: operation, code, status → count. */
  async function recordsOf(partner: string): Promise<Record<string, number>> {
    await c.h.server.audit.flush();
    const month = new Date().toISOString().slice(0, 7);
    const rows = await new FileAuditReader(auditDir).usage(month, partner);
    return Object.fromEntries(rows.map((r) => [`${r.operation} ${r.code} ${r.httpStatus}`, r.count]));
  }

  it('when a partner without the signals\' operations sends 300 requests of 100 numbers with AUDIT_FAIL_CLOSED=true, then each leaves one record and another partner\'s SIM Swap keeps answering 200', async () => {
    const REQUESTS = 300;
    const m = numbers(100);
    let sent = 0;
    let flooding = true;
    const flood = async () => {
      while (sent < REQUESTS) {
        sent += 1;
        const r = await gql(c.h, EVERY_SIGNAL, { m }, { qs: signedQuery(KYC_ONLY) });
        expect([r.status, r.body.data, r.body.errors?.map((e) => e.extensions.desc)])
          .toEqual([200, null, ['Error Process: operation sim_swap is not allowed for this partner']]);
      }
    };
    const probes: number[] = [];
    const probe = async () => {
      // Probes run for as long as the flood does: each one answered while refused requests pour in.
      while (flooding) probes.push((await c.call('/sim-swap/v2/check', { phoneNumber: '+255712000001' })).status);
    };
    const probing = probe();
    await Promise.all(Array.from({ length: 8 }, flood));
    flooding = false;
    await probing;
    // The window was observed: probes ran during the flood, and all were answered.
    expect(probes.length).toBeGreaterThan(0);
    expect(probes.filter((s) => s !== 200)).toEqual([]);
    expect(c.h.server.audit.mode()).toBe('file');
    expect(await recordsOf('refused')).toEqual({ 'signals 11111 403': REQUESTS });
  }, 120_000);

  it('when aliased single fields of one request are refused for permission, then the request leaves one record', async () => {
    const aliases = numbers(50, 500).map((n, i) => `a${i}: simSwap(msisdn: "${n}") { simSwapped }`).join(' ');
    const before = (await recordsOf('refused'))['sim_swap 11111 403'] ?? 0;
    const r = await gql(c.h, `{ ${aliases} }`, undefined, { qs: signedQuery(KYC_ONLY) });
    // A non-null root field's error nulls data, and graphql-js reports the first; every field's resolver ran.
    expect(r.body.errors?.[0]?.extensions.desc).toBe('Error Process: operation sim_swap is not allowed for this partner');
    expect((await recordsOf('refused'))['sim_swap 11111 403']).toBe(before + 1);
  });

  it('when batches are refused for the rate limit or for a cost over the burst, then each leaves one record and spends no token', async () => {
    const reply = (r: GqlReply<QueryData>) => [r.body.data?.verifyCustomers?.length, r.body.errors?.map((e) => e.extensions.desc)];
    // Over the burst: 100 numbers × 2 operations = 200 tokens, never admissible.
    for (let i = 0; i < 3; i += 1) {
      expect(reply(await gql(c.h, BOTH_BATCH, { m: numbers(100, 1000) }, { qs: signedQuery(LIMITED) })))
        .toEqual([undefined, [expect.stringMatching(/200 rate-limit tokens.*burst of 100$/) as unknown]]);
    }
    // Those spent nothing: the whole burst still admits one batch (100 records, one per number).
    expect(reply(await gql(c.h, KYC_BATCH, { m: numbers(100, 2000) }, { qs: signedQuery(LIMITED) }))).toEqual([100, undefined]);
    for (let i = 0; i < 5; i += 1) {
      expect(reply(await gql(c.h, KYC_BATCH, { m: numbers(100, 3000) }, { qs: signedQuery(LIMITED) })))
        .toEqual([undefined, ['Error Process: rate limit exceeded']]);
    }
    expect(await recordsOf('limited')).toEqual({
      'verifyCustomers 11111 400': 3,
      'kyc 00000 200': 100,
      'verifyCustomers 11111 429': 5,
    });
  });
});
