import { randomUUID } from 'node:crypto';
import { AuditRow, LIMITED, PURPOSE, auditPartnersFile, auditRows } from '../support/audit-db';
import { Harness, startHarness } from '../support/harness';
import { PostgresProcess, startPostgres } from '../../tools/process-kit/postgres-server';
import { fetchToken } from '../support/oauth';
import { DEMO, DEMO_KYC_ONLY, signedQuery, txnId } from '../support/signing';

describe('audit trail on PostgreSQL: one record per answered verification (CONTRACT §9)', () => {
  let pg: PostgresProcess;
  let h: Harness;

  beforeAll(async () => {
    pg = await startPostgres();
    h = await startHarness({ env: { AUDIT_DATABASE_URL: pg.url, PARTNERS_FILE: auditPartnersFile(), AUDIT_FLUSH_MS: '20' } });
  });
  afterAll(async () => {
    await h?.close();
    await pg?.destroy();
  });
  afterEach(() => h.sim.resetFaults());

  /** Sends with its own correlator; returns the rows that request left. */
  async function rest(op: 'kyc' | 'sim_swap', body: object, query = signedQuery(DEMO)) {
    const correlator = randomUUID();
    const reply = await h.post(op, body, { query, headers: { 'x-correlator': correlator } });
    return { reply, rows: await rowsOf(correlator) };
  }

  async function rowsOf(correlator: string): Promise<AuditRow[]> {
    await h.server.audit.flush();
    return auditRows(pg, 'correlator = $1', [correlator]);
  }

  async function gql(query: string, variables: object = {}) {
    const correlator = randomUUID();
    const res = await fetch(`${h.url}/graphql?${signedQuery(DEMO)}`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-correlator': correlator }, body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, headers: res.headers, body: await res.json() as { data?: Record<string, unknown> }, rows: await rowsOf(correlator) };
  }

  it('when the service starts, then it creates its partitioned schema: this month and the next two', async () => {
    const parts = await pg.query<{ relname: string }>(`SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'audit_records'`);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    const migrations = await pg.query<{ name: string }>('SELECT name FROM audit_migrations');
    expect(migrations.map((m) => m.name)).toEqual(['1763942400000_audit-records', '1764115200000_audit-kyc-match']);
  });

  it('when a legacy KYC succeeds, then its record has every field, the msisdn normalised and the purpose from the registry', async () => {
    const txn = txnId('a');
    const before = Date.now();
    const { reply, rows } = await rest('kyc', { txn_id: txn, msisdn: '0712000001' });
    expect(reply.status).toBe(200);
    expect(rows).toHaveLength(1);
    const [r] = rows;
    expect(r).toMatchObject({
      partner: 'demo-bank', interface: 'legacy', operation: 'kyc', msisdn: '255712000001', code: '00000', http_status: 200,
      txn_id: txn, purpose: PURPOSE, replayed: false,
    });
    expect(r.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(r.time.getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(r.time.getTime()).toBeLessThanOrEqual(Date.now() + 5);

    const replay = await rest('kyc', { txn_id: txn, msisdn: '0712000001' });
    expect(replay.reply.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.rows).toHaveLength(1);
    expect(replay.rows[0]).toMatchObject({ code: '00000', http_status: 200, txn_id: txn, replayed: true });
  });

  it('when SIM swap answers a success, a 404 for a non-subscriber and its replay, and a 409 for a reused txn_id, then each is recorded', async () => {
    const ok = await rest('sim_swap', { txn_id: txnId('b'), msisdn: '255712000006' });
    expect(ok.rows).toEqual([expect.objectContaining({ operation: 'sim_swap', msisdn: '255712000006', code: '00000', http_status: 200 })]);

    const txn = txnId('c');
    const missing = await rest('sim_swap', { txn_id: txn, msisdn: '+255712999999' });
    expect(missing.reply.status).toBe(404);
    expect(missing.rows).toEqual([expect.objectContaining({ msisdn: '255712999999', code: '11111', http_status: 404, replayed: false })]);
    const again = await rest('sim_swap', { txn_id: txn, msisdn: '+255712999999' });
    expect(again.reply.status).toBe(404);
    expect(again.rows).toEqual([expect.objectContaining({ code: '11111', http_status: 404, replayed: true })]);

    const conflict = await rest('sim_swap', { txn_id: txn, msisdn: '255712000001' });
    expect(conflict.reply.status).toBe(409);
    expect(conflict.rows).toEqual([expect.objectContaining({ msisdn: '255712000001', code: '11111', http_status: 409, txn_id: txn })]);
  });

  it('when requests are refused after authentication (403, 429, 9999), then they are recorded; when refused with 401 or 400, then not', async () => {
    const forbidden = await rest('sim_swap', { txn_id: txnId('d'), msisdn: '255712000001' }, signedQuery(DEMO_KYC_ONLY));
    expect(forbidden.reply.status).toBe(403);
    expect(forbidden.rows).toEqual([expect.objectContaining({ partner: 'demo-kyc-only', code: '11111', http_status: 403, purpose: null })]);

    await rest('kyc', { txn_id: txnId('e'), msisdn: '255712000001' }, signedQuery(LIMITED));
    const limited = await rest('kyc', { txn_id: txnId('e'), msisdn: '255712000001' }, signedQuery(LIMITED));
    expect(limited.reply.status).toBe(429);
    expect(limited.rows).toEqual([expect.objectContaining({ partner: 'limited', code: '11111', http_status: 429 })]);

    h.sim.setFault('sim', { down: true });
    const down = await rest('sim_swap', { txn_id: txnId('f'), msisdn: '255712000002' });
    expect(down.reply.status).toBe(503);
    expect(down.rows).toEqual([expect.objectContaining({ code: '9999', http_status: 503 })]);

    const unsigned = await rest('kyc', { txn_id: txnId('g'), msisdn: '255712000001' }, 'api_key=demo-key&sig=00');
    expect(unsigned.reply.status).toBe(401);
    expect(unsigned.rows).toEqual([]);
    const malformed = await rest('kyc', { txn_id: txnId('h'), msisdn: '12' });
    expect(malformed.reply.status).toBe(400);
    expect(malformed.rows).toEqual([]);
  });

  it('when GraphQL asks, then there is one record per field, and txnId replays are marked', async () => {
    const txn = txnId('i');
    const q = `query($t: String) { kyc(msisdn: "0712000002", txnId: $t) { isValid } simSwap(msisdn: "255712000006") { simSwapped } }`;
    const first = await gql(q, { t: txn });
    expect(first.status).toBe(200);
    const byOperation = [...first.rows].sort((a, b) => a.operation.localeCompare(b.operation));
    expect(byOperation.map((r) => [r.interface, r.operation, r.msisdn, r.code, r.txn_id, r.replayed])).toEqual([
      ['graphql', 'kyc', '255712000002', '00000', txn, false],
      ['graphql', 'sim_swap', '255712000006', '00000', null, false],
    ]);
    const replay = await gql(`query($t: String) { kyc(msisdn: "0712000002", txnId: $t) { isValid } }`, { t: txn });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.rows).toEqual([expect.objectContaining({ operation: 'kyc', replayed: true, txn_id: txn })]);
  });

  it('when GraphQL verifyCustomers asks, then there is one record per well-formed number and operation asked', async () => {
    const r = await gql(`query($m: [String!]!) { verifyCustomers(msisdns: $m) { msisdn kyc { isValid } simSwap { simSwapped } error { code } } }`,
      { m: ['0712000001', 'not-a-number', '255712999999'] });
    expect(r.status).toBe(200);
    const seen = r.rows.map((x) => `${x.msisdn} ${x.operation} ${x.code} ${x.http_status}`).sort();
    expect(seen).toEqual([
      '255712000001 kyc 00000 200',
      '255712000001 sim_swap 00000 200',
      '255712999999 kyc 00000 200',
      '255712999999 sim_swap 11111 404',
    ]);
    const onlyKyc = await gql(`query($m: [String!]!) { verifyCustomers(msisdns: $m) { msisdn kyc { isValid } } }`, { m: ['255712000003'] });
    expect(onlyKyc.rows.map((x) => x.operation)).toEqual(['kyc']);
  });

  it('when CAMARA answers, then there is one record per answered call (interface camara, registry purpose), and none for a number that is not ours', async () => {
    const token = await fetchToken(h.url, { clientId: DEMO.apiKey, clientSecret: DEMO.secret });
    const camara = async (path: string, body: object) => {
      const correlator = randomUUID();
      const res = await fetch(`${h.url}${path}`, {
        method: 'POST', body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-correlator': correlator },
      });
      return { status: res.status, rows: await rowsOf(correlator) };
    };
    const check = await camara('/sim-swap/v2/check', { phoneNumber: '+255712000006', maxAge: 240 });
    expect(check.status).toBe(200);
    expect(check.rows).toHaveLength(1);
    expect(check.rows[0]).toMatchObject({
      partner: 'demo-bank', interface: 'camara', operation: 'sim_swap.check', msisdn: '255712000006', code: '00000', http_status: 200,
      txn_id: null, purpose: PURPOSE, replayed: false,
    });
    const unknown = await camara('/kyc-tenure/v0.2/check-tenure', { phoneNumber: '+255712999999', tenureDate: '2024-01-01' });
    expect(unknown.status).toBe(404);
    expect(unknown.rows.map((x) => `${x.interface} ${x.operation} ${x.msisdn} ${x.http_status}`)).toEqual(['camara kyc.check-tenure 255712999999 404']);
    const foreign = await camara('/sim-swap/v2/retrieve-date', { phoneNumber: '+4915112345678' });
    expect(foreign.status).toBe(422);
    expect(foreign.rows).toEqual([]);
  });

  it('when a KYC Match is answered, then its row holds the attributes compared and the counts in match, and no value', async () => {
    const token = await fetchToken(h.url, { clientId: DEMO.apiKey, clientSecret: DEMO.secret, scope: 'kyc-match:match' });
    const correlator = randomUUID();
    const res = await fetch(`${h.url}/kyc-match/v0.4/match`, {
      method: 'POST', body: JSON.stringify({ phoneNumber: '+255712000011', givenName: 'Jose', birthdate: '1987-04-21', nameKanaHankaku: 'ﾎｾ' }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-correlator': correlator },
    });
    expect(await res.json()).toEqual({ givenNameMatch: 'true', birthdateMatch: 'false', nameKanaHankakuMatch: 'not_available' });
    const rows = await rowsOf(correlator);
    expect(rows).toEqual([expect.objectContaining({
      interface: 'camara', operation: 'kyc_match.match', msisdn: '255712000011', code: '00000', http_status: 200,
      match: { compared: ['givenName', 'nameKanaHankaku', 'birthdate'], true: 1, false: 1, not_available: 1 },
    })]);
    expect(JSON.stringify(rows)).not.toMatch(/Jose|1987-04/);
    const other = (await rest('kyc', { txn_id: txnId(), msisdn: '255712000001' })).rows;
    expect(other.map((r) => r.match)).toEqual([null]);
  });

  it('when readiness is asked, then it names the audit store', async () => {
    const body = await (await fetch(`${h.url}/readyz`)).json() as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'ready', audit: 'postgres' });
  });
});
