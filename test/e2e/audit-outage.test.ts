import { randomUUID } from 'node:crypto';
import { auditRows, eventually } from '../support/audit-db';
import { Harness, startHarness } from '../support/harness';
import { PostgresProcess, startPostgres } from '../../tools/process-kit/postgres-server';
import { DEMO, signedQuery, txnId } from '../support/signing';
import { until } from '../support/until';

const FAST = { AUDIT_FLUSH_MS: '50', AUDIT_WRITE_TIMEOUT_MS: '500', AUDIT_RETRY_MS: '200' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Sent {
  correlator: string;
  status: number;
}

/** Steady traffic at roughly `perSecond` until stop(); every request carries its own correlator. */
function steadyTraffic(h: Harness, perSecond: number) {
  const sent: Sent[] = [];
  const inFlight = new Set<Promise<void>>();
  let running = true;
  const loop = (async () => {
    let i = 0;
    while (running) {
      const correlator = randomUUID();
      const op = i++ % 2 === 0 ? 'kyc' : 'sim_swap';
      const p = h.post(op, { txn_id: txnId('o'), msisdn: '255712000001' }, { query: signedQuery(DEMO), headers: { 'x-correlator': correlator } })
        .then((r) => { sent.push({ correlator, status: r.status }); }, () => { sent.push({ correlator, status: 0 }); });
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
      await sleep(1000 / perSecond);
    }
  })();
  return {
    sent,
    stop: async () => {
      running = false;
      await loop;
      await Promise.all(inFlight);
      return sent;
    },
  };
}

async function counter(h: Harness, outcome: string): Promise<number> {
  const text = await (await fetch(`${h.url}/metrics`)).text();
  const m = new RegExp(`^verify_audit_records_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(text);
  return m ? Number(m[1]) : NaN;
}

async function readyAudit(h: Harness): Promise<unknown> {
  return ((await (await fetch(`${h.url}/readyz`)).json()) as { audit?: unknown }).audit;
}

describe('audit trail while PostgreSQL is down (CONTRACT §9: nothing silently lost)', () => {
  let pg: PostgresProcess;
  beforeAll(async () => { pg = await startPostgres(); });
  afterAll(async () => { await pg?.destroy(); });

  it('when PostgreSQL stops under steady load and starts again, then the service keeps answering and every record arrives once', async () => {
    const h = await startHarness({ env: { AUDIT_DATABASE_URL: pg.url, ...FAST } });
    const load = steadyTraffic(h, 40);
    try {
      await until(() => load.sent.length >= 20, 'records written to PostgreSQL under load');
      await pg.stop();
      await eventually(async () => expect(await readyAudit(h)).toBe('degraded'), 10_000);
      const answeredWhileDown = load.sent.length;
      await until(async () => load.sent.length > answeredWhileDown + 5 && await counter(h, 'spooled') > 0, 'answers and spooled records while PostgreSQL is down');
      expect(load.sent.length).toBeGreaterThan(answeredWhileDown + 5);
      await pg.start();
      // The load goes on while the spool is replayed.
      await until(async () => await readyAudit(h) === 'postgres', 'the audit trail back on PostgreSQL');
      const sent = await load.stop();
      expect(sent.filter((s) => s.status !== 200).map((s) => JSON.stringify(s))).toEqual([]);

      await h.server.audit.flush();
      await eventually(async () => expect(await readyAudit(h)).toBe('postgres'), 15_000);
      const rows = await auditRows(pg);
      const perCorrelator = new Map<string, number>();
      for (const r of rows) perCorrelator.set(r.correlator, (perCorrelator.get(r.correlator) ?? 0) + 1);
      expect(rows.length).toBe(sent.length);
      expect(sent.filter((s) => perCorrelator.get(s.correlator) !== 1)).toEqual([]);
      expect(await counter(h, 'spooled')).toBeGreaterThan(0);
      expect(await counter(h, 'replayed')).toBe(await counter(h, 'spooled'));
      expect(await counter(h, 'dropped')).toBe(0);
    } finally {
      await load.stop();
      await h.close();
    }
  }, 60_000);

  it("when AUDIT_FAIL_CLOSED=true and records cannot be written, then requests get 503 (9999 in the operation's shape), and are served again once they can", async () => {
    await pg.query('DROP TABLE IF EXISTS audit_records; DROP TABLE IF EXISTS audit_migrations');
    const h = await startHarness({ env: { AUDIT_DATABASE_URL: pg.url, AUDIT_FAIL_CLOSED: 'true', ...FAST } });
    let load: ReturnType<typeof steadyTraffic> | undefined;
    try {
      load = steadyTraffic(h, 40);
      await until(() => load!.sent.length >= 10, 'requests served before PostgreSQL stops');
      await pg.stop();
      await eventually(async () => {
        const r = await h.post('sim_swap', { txn_id: txnId('p'), msisdn: '255712000001' }, { headers: { 'x-correlator': `probe-${randomUUID()}` } });
        expect(r.status).toBe(503);
        expect(r.headers.get('retry-after')).toBe('1');
        expect(r.body).toEqual({ response: { code: '9999', desc: 'Unexpected system Error: audit trail unavailable' } });
      }, 10_000);
      const k = await h.post('kyc', { txn_id: txnId('p'), msisdn: '255712000001' }, { headers: { 'x-correlator': `probe-${randomUUID()}` } });
      expect(k.status).toBe(503);
      expect(k.body).toEqual({ code: '9999', desc: 'Unexpected system Error: audit trail unavailable' });
      for (const query of ['{ kyc(msisdn: "0712000001") { isValid } }', '{ verifyCustomers(msisdns: ["0712000002"]) { kyc { isValid } } }']) {
        const g = await fetch(`${h.url}/graphql?${signedQuery(DEMO)}`, {
          method: 'POST', headers: { 'content-type': 'application/json', 'x-correlator': `probe-${randomUUID()}` }, body: JSON.stringify({ query }),
        });
        const gb = await g.json() as { errors?: Array<{ extensions?: { code?: string }; message?: string }> };
        expect(gb.errors?.map((e) => [e.extensions?.code, e.message])).toEqual([['9999', 'Unexpected system Error: audit trail unavailable']]);
      }
      await pg.start();
      await eventually(async () => {
        expect((await h.post('kyc', { txn_id: txnId('q'), msisdn: '255712000001' }, { headers: { 'x-correlator': `probe-${randomUUID()}` } })).status).toBe(200);
      }, 15_000);
      const sent = await load.stop();
      load = undefined;
      expect(sent.some((s) => s.status === 503)).toBe(true);
      await h.server.audit.flush();
      await eventually(async () => expect(await readyAudit(h)).toBe('postgres'), 15_000);
      // Every request that was served is recorded, once; the refused ones served nothing and are not.
      const rows = await auditRows(pg);
      const served = sent.filter((s) => s.status === 200).map((s) => s.correlator);
      const recorded = rows.map((r) => r.correlator).filter((c) => !c.startsWith('probe-'));
      expect(new Set(recorded).size).toBe(recorded.length);
      expect(recorded.sort()).toEqual(served.sort());
    } finally {
      await load?.stop();
      await h.close();
    }
  }, 60_000);

  it('when PostgreSQL is down as the service starts, then it starts, answers and spools, and creates the schema and replays once PostgreSQL comes', async () => {
    await pg.query('DROP TABLE IF EXISTS audit_records; DROP TABLE IF EXISTS audit_migrations');
    await pg.stop();
    const h = await startHarness({ env: { AUDIT_DATABASE_URL: pg.url, ...FAST } });
    try {
      expect(await readyAudit(h)).toBe('degraded');
      const correlators = Array.from({ length: 5 }, () => randomUUID());
      for (const c of correlators) {
        expect((await h.post('kyc', { txn_id: txnId('w'), msisdn: '0712000003' }, { headers: { 'x-correlator': c } })).status).toBe(200);
      }
      await h.server.audit.flush();
      expect(await readyAudit(h)).toBe('degraded');
      await pg.start();
      await eventually(async () => expect(await readyAudit(h)).toBe('postgres'), 20_000);
      expect((await auditRows(pg)).map((r) => r.correlator).sort()).toEqual(correlators.sort());
    } finally {
      await h.close();
    }
  }, 60_000);
});
