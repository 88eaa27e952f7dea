import { randomUUID } from 'node:crypto';
import { eventually } from '../support/audit-db';
import { CamaraReply, startCamaraHarness } from '../support/camara-harness';
import { PostgresProcess, startPostgres } from '../../tools/process-kit/postgres-server';
import { DEMO, signedQuery, txnId } from '../support/signing';

/*
 * AUDIT_FAIL_CLOSED refuses every verification while the audit store cannot take records:
 * a temporary condition, so each interface says "unavailable, retry" in its own shape, never
 * "server bug".
 */

const FAST = { AUDIT_FLUSH_MS: '50', AUDIT_WRITE_TIMEOUT_MS: '500', AUDIT_RETRY_MS: '200', AUDIT_FAIL_CLOSED: 'true' };

function expectUnavailable(r: CamaraReply): void {
  expect([r.status, r.body]).toEqual([503, { status: 503, code: 'UNAVAILABLE', message: 'audit trail unavailable' }]);
  expect(r.headers.get('retry-after')).toBe('1');
}

describe('AUDIT_FAIL_CLOSED over every interface', () => {
  let pg: PostgresProcess;
  beforeAll(async () => { pg = await startPostgres(); });
  afterAll(async () => { await pg?.destroy(); });

  it('when the audit store is down with AUDIT_FAIL_CLOSED=true, then every CAMARA route answers 503 UNAVAILABLE with Retry-After, legacy 503 9999 and GraphQL 9999; and 200 again once it is back', async () => {
    const c = await startCamaraHarness({ env: { AUDIT_DATABASE_URL: pg.url, ...FAST } });
    try {
      expect((await c.call('/sim-swap/v2/check', { phoneNumber: '+255712000001' })).status).toBe(200);
      await pg.stop();
      // The writer notices the outage at its next batch: keep asking until it refuses.
      await eventually(async () => expectUnavailable(await c.call('/sim-swap/v2/check', { phoneNumber: '+255712000001' })), 10_000);
      expectUnavailable(await c.call('/sim-swap/v2/retrieve-date', { phoneNumber: '+255712000001' }));
      expectUnavailable(await c.call('/kyc-tenure/v0.2/check-tenure', { phoneNumber: '+255712000001', tenureDate: '2020-01-01' }));

      const k = await c.h.post('kyc', { txn_id: txnId('f'), msisdn: '255712000001' }, { headers: { 'x-correlator': randomUUID() } });
      expect([k.status, k.body, k.headers.get('retry-after')]).toEqual([503, { code: '9999', desc: 'Unexpected system Error: audit trail unavailable' }, '1']);
      const g = await fetch(`${c.url}/graphql?${signedQuery(DEMO)}`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ kyc(msisdn: "0712000001") { isValid } }' }),
      });
      const gb = await g.json() as { errors?: Array<{ extensions?: { code?: string } }> };
      expect(gb.errors?.map((e) => e.extensions?.code)).toEqual(['9999']);

      await pg.start();
      await eventually(async () => expect((await c.call('/sim-swap/v2/check', { phoneNumber: '+255712000001' })).status).toBe(200), 20_000);
    } finally {
      await c.close();
    }
  }, 60_000);
});
