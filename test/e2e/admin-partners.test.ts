import { readFileSync } from 'node:fs';
import { API, AdminHarness, AdminReply, startAdminHarness } from '../support/admin-harness';
import { postJson } from '../support/harness';
import { CapturedLogs, captureLogs } from '../support/log-capture';
import { signedQuery, txnId } from '../support/signing';
import { until } from '../support/until';

/*
 * Partners and their secrets through the admin API (CONTRACT §12) over PARTNERS_FILE: a partner
 * created is in force at once, a rotation keeps both secrets valid for the grace, a revocation
 * stops the old one, the change log names who did each change — and no secret is ever in a list,
 * a change log entry, a log line or a problem.
 */

interface PartnerBody {
  name: string;
  apiKey: string;
  enabled: boolean;
  operations: string[];
  secrets: { id: string; createdAt: string; validUntil: string | null }[];
}

async function kyc(a: AdminHarness, creds: { apiKey: string; secret: string }): Promise<number> {
  const r = await postJson(`${a.h.url}/eai/verify_customer/query/kyc?${signedQuery(creds)}`, { msisdn: '255712000001', txn_id: txnId() });
  return r.status;
}

describe('admin API: partners and secrets', () => {
  let a: AdminHarness;
  let logs: CapturedLogs;
  let admin: { bearer: string };
  let viewer: { bearer: string };
  const secrets: string[] = [];
  beforeAll(async () => {
    logs = captureLogs('debug');
    a = await startAdminHarness({ logger: logs.logger });
    admin = { bearer: a.tokens['admin-bot'] };
    viewer = { bearer: a.tokens['viewer-bot'] };
  }, 60_000);
  afterAll(() => a?.close());

  function noSecretIn(what: string, text: string): void {
    for (const s of secrets) expect([what, text.includes(s)]).toEqual([what, false]);
  }

  it('when a partner-admin creates a partner, then 201 gives its api key and secret once, and its credentials work at once', async () => {
    const r = await a.call('POST', '/partners', admin, { body: { name: 'acme-bank', operations: ['kyc', 'sim_swap'], purpose: 'onboarding' } });
    expect(r.status).toBe(201);
    const { partner, secret } = r.body as { partner: PartnerBody; secret: string };
    secrets.push(secret);
    expect(r.headers.get('location')).toBe(`${API}/partners/acme-bank`);
    expect(partner).toMatchObject({ name: 'acme-bank', enabled: true, operations: ['kyc', 'sim_swap'], purpose: 'onboarding' });
    expect(partner.secrets).toHaveLength(1);
    await until(async () => (await kyc(a, { apiKey: partner.apiKey, secret })) === 200, 'the new partner\'s KYC call answers 200');
    const again = await a.call('POST', '/partners', admin, { body: { name: 'acme-bank', operations: ['kyc'] } });
    expect(again.status).toBe(409);
  });

  it('when partners are listed or read, then each shows its secrets as ids and dates only', async () => {
    const list = await a.call('GET', '/partners', viewer);
    expect(list.status).toBe(200);
    const items = (list.body as { items: PartnerBody[] }).items;
    expect(items.map((p) => p.name)).toContain('acme-bank');
    noSecretIn('list', list.text);
    expect(list.text).not.toMatch(/"secret"/);
    const one = await a.call('GET', '/partners/acme-bank', viewer);
    expect([one.status, (one.body as PartnerBody).name]).toEqual([200, 'acme-bank']);
    expect((await a.call('GET', '/partners/nobody-here', viewer)).status).toBe(404);
  });

  it('when a secret is rotated, then both sign during the grace; revoking the old one refuses it, and the last one of an enabled partner cannot be revoked (409)', async () => {
    const before = (await a.call('GET', '/partners/acme-bank', viewer)).body as PartnerBody;
    const apiKey = before.apiKey;
    const old = secrets[0];
    const rotated = await a.call('POST', '/partners/acme-bank/secrets', admin, { body: { graceSeconds: 3600 } });
    expect(rotated.status).toBe(201);
    const { id, secret, previousValidUntil } = rotated.body as { id: string; secret: string; previousValidUntil: string };
    secrets.push(secret);
    expect(Date.parse(previousValidUntil) - Date.now()).toBeGreaterThan(3_500_000);
    await until(async () => (await kyc(a, { apiKey, secret })) === 200, 'the new secret signs');
    expect(await kyc(a, { apiKey, secret: old })).toBe(200);
    const oldId = before.secrets[0].id;
    expect((await a.call('DELETE', `/partners/acme-bank/secrets/${oldId}`, admin)).status).toBe(204);
    await until(async () => (await kyc(a, { apiKey, secret: old })) === 401, 'the revoked secret is refused');
    expect(await kyc(a, { apiKey, secret })).toBe(200);
    const last = await a.call('DELETE', `/partners/acme-bank/secrets/${id}`, admin);
    expect(last.status).toBe(409);
    expect((await a.call('DELETE', '/partners/acme-bank/secrets/no-such-secret', admin)).status).toBe(404);
    // A rotation without a body takes the default grace.
    const plain = await a.call('POST', '/partners/acme-bank/secrets', admin);
    expect(plain.status).toBe(201);
    secrets.push((plain.body as { secret: string }).secret);
  });

  it('when a partner is disabled through PATCH, then its calls are refused; other fields change only as given', async () => {
    const p = (await a.call('GET', '/partners/acme-bank', viewer)).body as PartnerBody;
    const r = await a.call('PATCH', '/partners/acme-bank', admin, { body: { enabled: false, rateLimit: { perSecond: 5, burst: 10 } } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ enabled: false, operations: ['kyc', 'sim_swap'], rateLimit: { perSecond: 5, burst: 10 }, purpose: 'onboarding' });
    await until(async () => (await kyc(a, { apiKey: p.apiKey, secret: secrets[secrets.length - 1] })) !== 200, 'the disabled partner is refused');
    const cleared = await a.call('PATCH', '/partners/acme-bank', admin, { body: { purpose: null, rateLimit: null } });
    expect(cleared.body).toMatchObject({ purpose: null, rateLimit: null, enabled: false });
  });

  it('when the change log is read, then each change names who made it, newest first, with no secret in it', async () => {
    const r = await a.call('GET', '/changes?partner=acme-bank&limit=50', viewer);
    expect(r.status).toBe(200);
    const items = (r.body as { items: { action: string; actor: { type: string; name: string } }[] }).items;
    expect(items.map((c) => c.action)).toEqual(['partner.update', 'partner.update', 'secret.rotate', 'secret.revoke', 'secret.rotate', 'partner.create']);
    expect(new Set(items.map((c) => `${c.actor.type}:${c.actor.name}`))).toEqual(new Set(['token:admin-bot']));
    noSecretIn('changes', r.text);
    const paged = await a.call('GET', '/changes?partner=acme-bank&limit=2', viewer);
    const next = (paged.body as { nextCursor?: string }).nextCursor;
    expect(next).toBeDefined();
    const page2 = await a.call('GET', `/changes?partner=acme-bank&limit=2&cursor=${encodeURIComponent(next ?? '')}`, viewer);
    expect((page2.body as { items: { action: string }[] }).items.map((c) => c.action)).toEqual(['secret.rotate', 'secret.revoke']);
  });

  it('when a signed-in person makes a change, then the change log names them (the IdP e-mail)', async () => {
    const s = await a.signIn('pat');
    const r = await a.call('PATCH', '/partners/acme-bank', { session: s }, { body: { enabled: true } });
    expect(r.status).toBe(200);
    const changes = await a.call('GET', '/changes?partner=acme-bank&limit=1', viewer);
    expect((changes.body as { items: { actor: unknown }[] }).items[0].actor).toEqual({ type: 'person', name: 'pat@operator.example' });
  });

  it('when everything above is done, then no secret is in any log line, and the registry file is the only place holding them', () => {
    expect(logs.raw().length).toBeGreaterThan(0);
    noSecretIn('logs', logs.raw().join('\n'));
    // Positive control: the file registry does hold the live secret (the scan would have found it).
    expect(readFileSync(a.partnersFile, 'utf8')).toContain(secrets[secrets.length - 1]);
  });

  it('when a refused change is asked, then the problem body names the field and never echoes a value', async () => {
    const r: AdminReply = await a.call('POST', '/partners', admin, { body: { name: 'ok-name', operations: ['kyc'], secret: secrets[0] } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ status: 400, errors: [{ field: 'body', message: 'unknown field "secret"' }] });
    noSecretIn('problem', r.text);
  });
});
