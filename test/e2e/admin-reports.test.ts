import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresProcess, startPostgres } from '../../tools/process-kit/postgres-server';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { API, AdminHarness, startAdminHarness } from '../support/admin-harness';
import { postJson } from '../support/harness';
import { adminApiSpec } from '../support/openapi-validator';
import { SinkServer, startSink } from '../support/sink-server';
import { DEMO, signedQuery, txnId } from '../support/signing';
import { SubsHarness, startSubsHarness, subscriptionBody, until } from '../support/subscriptions-harness';

/*
 * What the admin API reads beside the registry (CONTRACT §9, §12): usage and the audit search
 * from the audit store, the console's overview, and webhook dead letters on Redis (a clear 503
 * problem without Redis).
 */

interface AuditItem { id: string; time: string; partner: string; msisdn: string; operation: string; httpStatus: number }

/** The same questions against either audit store: the JSON-lines files, or PostgreSQL. */
function reportSuite(store: 'file' | 'postgres'): void {
  let a: AdminHarness;
  let pg: PostgresProcess | undefined;
  const statuses: number[] = [];
  beforeAll(async () => {
    pg = store === 'postgres' ? await startPostgres() : undefined;
    a = await startAdminHarness(pg ? { env: { AUDIT_DATABASE_URL: pg.url, AUDIT_FLUSH_MS: '20' } } : {});
    // Three answered KYC calls about one number, one about a number that is no subscriber (404), one about another number.
    for (const msisdn of ['255712000001', '0712000001', '+255712000001', '255719999999', '255712000002']) {
      statuses.push((await postJson(`${a.h.url}/eai/verify_customer/query/kyc?${signedQuery(DEMO)}`, { msisdn, txn_id: txnId() })).status);
    }
    await a.h.server.audit.flush();
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await pg?.destroy();
  });

  const compliance = () => ({ bearer: a.tokens['compliance-bot'] });
  const viewer = () => ({ bearer: a.tokens['viewer-bot'] });

  it('when usage is asked by hour, then it counts the answered requests per partner, operation and outcome', async () => {
    const r = await a.call('GET', '/usage?interval=hour', viewer());
    expect(r.status).toBe(200);
    const rows = (r.body as { rows: { partner: string; operation: string; httpStatus: number; count: number }[] }).rows;
    const ok = rows.filter((x) => x.operation === 'kyc' && x.httpStatus === 200).reduce((n, x) => n + x.count, 0);
    const bad = rows.filter((x) => x.operation === 'kyc' && x.httpStatus >= 400).reduce((n, x) => n + x.count, 0);
    expect([ok, bad]).toEqual([statuses.filter((x) => x === 200).length, statuses.filter((x) => x >= 400).length]);
    expect(ok + bad).toBe(5);
    const other = await a.call('GET', '/usage?partner=nobody', viewer());
    expect((other.body as { rows: unknown[] }).rows).toEqual([]);
    const day = await a.call('GET', `/usage?interval=day&from=${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}`, viewer());
    expect((day.body as { rows: { count: number }[] }).rows.reduce((n, x) => n + x.count, 0)).toBe(5);
  });

  it('when compliance searches a number in any form, then its records come newest first, paged, and another number\'s never', async () => {
    const all = await a.call('GET', '/audit?msisdn=0712000001', compliance());
    expect(all.status).toBe(200);
    const items = (all.body as { items: AuditItem[] }).items;
    expect(items).toHaveLength(3);
    expect(new Set(items.map((i) => i.msisdn))).toEqual(new Set(['255712000001']));
    const times = items.map((i) => Date.parse(i.time));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    const first = await a.call('GET', '/audit?msisdn=%2B255712000001&limit=2', compliance());
    const page1 = first.body as { items: AuditItem[]; nextCursor?: string };
    expect(page1.items.map((i) => i.id)).toEqual(items.slice(0, 2).map((i) => i.id));
    const second = await a.call('GET', `/audit?msisdn=255712000001&limit=2&cursor=${page1.nextCursor ?? ''}`, compliance());
    const page2 = second.body as { items: AuditItem[]; nextCursor?: string };
    expect([page2.items.map((i) => i.id), page2.nextCursor]).toEqual([[items[2].id], undefined]);
    const byPartner = await a.call('GET', '/audit?partner=demo-bank', compliance());
    expect((byPartner.body as { items: AuditItem[] }).items.length).toBeGreaterThanOrEqual(5);
  });

  it('when the audit search is asked badly, then 400 problems name the parameter (not a number, no filter, a forged cursor, a reversed range)', async () => {
    for (const q of ['', '?msisdn=12', '?partner=demo-bank&cursor=Zm9v', '?partner=demo-bank&from=2026-02-30', '?partner=demo-bank&from=2026-11-02&to=2026-11-01', '?partner=demo-bank&limit=0', '?partner=demo-bank&x=1', '?partner=a&partner=b']) {
      const r = await a.call('GET', `/audit${q}`, compliance());
      expect([q, r.status]).toEqual([q, 400]);
    }
  });

  it('when the overview is asked, then it gives requests and errors per API by hour, the breakers, and the store, audit and registry state', async () => {
    const r = await a.call('GET', '/overview?hours=3', viewer());
    expect(r.status).toBe(200);
    const body = r.body as { hours: number; apis: { interface: string; operation: string; buckets: { requests: number; errors: number }[] }[]; store: string; audit: { mode: string }; registry: { kind: string; partners: number }; webhooks: { deadLetters: number | null }; upstreams: Record<string, string> };
    expect(body.hours).toBe(3);
    const kyc = body.apis.find((x) => x.interface === 'legacy' && x.operation === 'kyc');
    expect(kyc?.buckets).toHaveLength(3);
    expect(kyc?.buckets.reduce((n, b) => n + b.requests, 0)).toBe(5);
    expect(kyc?.buckets.reduce((n, b) => n + b.errors, 0)).toBe(statuses.filter((x) => x >= 400).length);
    expect(body).toMatchObject({ store: 'memory', audit: { mode: store }, registry: { kind: 'file' }, webhooks: { deadLetters: null } });
    expect(body.registry.partners).toBeGreaterThan(0);
    expect(Object.keys(body.upstreams).length).toBeGreaterThan(0);
  });

  it('when dead letters are asked without Redis, then a 503 problem says they live on Redis', async () => {
    const r = await a.call('GET', '/dead-letters', viewer());
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ type: 'urn:verify-customer:admin:no-redis', status: 503 });
    expect((r.body as { detail: string }).detail).toMatch(/REDIS_URL/);
  });
}

describe('admin API: usage, audit search and overview (embedded audit store)', () => reportSuite('file'));
describe('admin API: usage, audit search and overview (PostgreSQL audit store)', () => reportSuite('postgres'));

describe('admin API: webhook dead letters on Redis', () => {
  let redis: RedisProcess;
  let sink: SinkServer;
  let h: SubsHarness;
  let dir: string;
  const token = randomBytes(24).toString('base64url');
  let consoleUrl: string;

  beforeAll(async () => {
    redis = await startRedis();
    sink = await startSink();
    dir = mkdtempSync(join(tmpdir(), 'vc-dlq-'));
    writeFileSync(join(dir, 'tokens.json'), JSON.stringify({ tokens: [{ name: 'ops-bot', roles: ['partner-admin'], sha256: createHash('sha256').update(token).digest('hex') }] }));
    h = await startSubsHarness({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'admdlq:', WEBHOOK_RETRY_WINDOW_S: '1', ADMIN_TOKENS_FILE: join(dir, 'tokens.json') });
    consoleUrl = h.h.server.consoleUrl ?? '';
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await sink?.close();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function call(method: string, path: string): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${consoleUrl}${API}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    const body = text ? JSON.parse(text) as unknown : undefined;
    adminApiSpec().assertResponse(method, `${API}${path.split('?')[0]}`, res.status, res.headers, body, text);
    return { status: res.status, body };
  }

  it('when an event\'s retry window runs out, then the admin API lists it (sink origin only), replays it with the same id, and drops it', async () => {
    sink.reply = () => 500;
    expect((await h.subscribe(subscriptionBody(`${sink.url}/dlq?token=secret-in-query`, '+255712000001'))).status).toBe(201);
    expect(await h.swap('255712000001')).toBe(200);
    let items: { jobId: string; eventId: string; sinkOrigin: string }[] = [];
    await until(async () => {
      items = ((await call('GET', '/dead-letters')).body as { items: typeof items }).items;
      return items.length === 1;
    }, 'one dead letter');
    expect(items[0].sinkOrigin).toBe(sink.url);
    expect(JSON.stringify(items)).not.toContain('secret-in-query');
    const subs = await call('GET', '/subscriptions?partner=demo-bank');
    expect(subs.status).toBe(200);
    expect((subs.body as { items: unknown[] }).items).toEqual([expect.objectContaining({ phoneNumber: '+255••••••001', sinkOrigin: sink.url })]);
    expect(JSON.stringify(subs.body)).not.toContain('secret-in-query');
    expect((await call('GET', '/subscriptions?partner=nobody')).status).toBe(404);
    const eventId = items[0].eventId;

    sink.reply = () => 204;
    const replay = await call('POST', `/dead-letters/${items[0].jobId}/replay`);
    expect(replay).toEqual({ status: 202, body: { id: items[0].jobId } });
    await until(() => sink.received.some((r) => r.body.id === eventId && sink.received.filter((x) => x.body.id === eventId).length > 1), 'the replayed event delivered again with its id');
    await until(async () => ((await call('GET', '/dead-letters')).body as { items: unknown[] }).items.length === 0, 'no dead letter left');
    expect((await call('POST', `/dead-letters/${items[0].jobId}/replay`)).status).toBe(404);

    // A second dead letter, dropped for good.
    sink.reply = () => 500;
    expect(await h.swap('255712000001')).toBe(200);
    await until(async () => {
      items = ((await call('GET', '/dead-letters')).body as { items: typeof items }).items;
      return items.length === 1;
    }, 'a second dead letter');
    expect((await call('DELETE', `/dead-letters/${items[0].jobId}`)).status).toBe(204);
    expect(((await call('GET', '/dead-letters')).body as { items: unknown[] }).items).toEqual([]);
    expect((await call('DELETE', `/dead-letters/${items[0].jobId}`)).status).toBe(404);
  });
});
