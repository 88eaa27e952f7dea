import { BadRequestError, ConflictError, NotFoundError } from '../../src/errors/domain-errors';
import { Actor, PartnerAdmin } from '../../src/partners/ports/partner-admin';
import { Harness, startHarness } from '../support/harness';
import { RegistryEnv, RegistryKind, camaraStatus, legacyStatus, registryEnv, timeUntil, tokenFor } from '../support/partner-registry';
import { until } from '../support/until';

/*
 * PartnerAdmin (CONTRACT §12) against both stores, PARTNERS_FILE and PostgreSQL, each behind the
 * real server: every change is judged by what the partner can then do over HTTP.
 */

const ACTOR: Actor = { type: 'person', name: 'alice@operator.example' };
const ops = ['kyc', 'sim_swap'] as const;

describe.each<RegistryKind>(['file', 'postgres'])('PartnerAdmin on the %s registry', (kind) => {
  let reg: RegistryEnv;
  let h: Harness;
  let admin: PartnerAdmin;
  /** Every secret handed out, to look for in the change log. */
  const secrets: string[] = [];

  beforeAll(async () => {
    reg = await registryEnv(kind);
    h = await startHarness({ env: reg.env });
    admin = h.server.partnerAdmin;
  });
  afterAll(async () => {
    await h?.close();
    await reg?.close();
  });

  async function create(name: string) {
    const made = await admin.create({ name, operations: [...ops] }, ACTOR);
    secrets.push(made.secret);
    return { ...made, creds: { apiKey: made.partner.apiKey, secret: made.secret } };
  }

  it('when a partner is created, then its secret is shown once and never listed, and it signs and gets tokens at once', async () => {
    const { partner, secret, creds } = await create('Acme Bank');
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(partner).toMatchObject({ name: 'Acme Bank', kind: 'partner', enabled: true, signature: 'md5', operations: [...ops], rateLimit: null, purpose: null });
    expect(partner.secrets).toHaveLength(1);
    const listed = JSON.stringify([await admin.list(), await admin.get('Acme Bank')]);
    expect(listed).toContain(partner.apiKey);
    expect(listed).not.toContain(secret);
    expect(listed).not.toContain('demo-secret');
    expect(await legacyStatus(h.url, creds)).toBe(200);
    expect(await legacyStatus(h.url, creds, { omitTimestamp: true })).toBe(200);
    expect((await tokenFor(h.url, creds)).status).toBe(200);
  });

  it('when input is invalid, then BadRequestError naming the field, and nothing is written', async () => {
    const before = JSON.stringify([await admin.list(), await admin.changes({ limit: 500 })]);
    const bad: [string, () => Promise<unknown>, RegExp][] = [
      ['unknown field', () => admin.create({ name: 'x1', operations: ['kyc'], secret: 'mine' } as never, ACTOR), /unknown field/],
      ['unknown operation', () => admin.create({ name: 'x2', operations: ['teleport'] } as never, ACTOR), /operations\.0/],
      ['no operation', () => admin.create({ name: 'x3', operations: [] }, ACTOR), /operations/],
      ['a name with a slash', () => admin.create({ name: '../etc', operations: ['kyc'] }, ACTOR), /name/],
      ['a negative rate', () => admin.update('Acme Bank', { rateLimit: { perSecond: -1, burst: 1 } }, ACTOR), /rateLimit\.perSecond/],
      ['a patch field that is not one', () => admin.update('Acme Bank', { apiKey: 'mine' } as never, ACTOR), /unknown field/],
      ['an empty patch', () => admin.update('Acme Bank', {}, ACTOR), /no field/],
      ['grace over 30 days', () => admin.rotateSecret('Acme Bank', 30 * 86_400 + 1, ACTOR), /graceSeconds/],
      ['grace not whole', () => admin.rotateSecret('Acme Bank', 1.5, ACTOR), /graceSeconds/],
    ];
    for (const [what, call, field] of bad) {
      const err = await call().then(() => undefined, (e: unknown) => e);
      expect([what, err instanceof BadRequestError, (err as Error).message]).toEqual([what, true, expect.stringMatching(field)]);
    }
    expect(JSON.stringify([await admin.list(), await admin.changes({ limit: 500 })])).toBe(before);
  });

  it('when a name is taken, then ConflictError; an unknown partner or secret, then NotFoundError', async () => {
    await expect(admin.create({ name: 'Acme Bank', operations: ['kyc'] }, ACTOR)).rejects.toBeInstanceOf(ConflictError);
    await expect(admin.update('nobody', { enabled: false }, ACTOR)).rejects.toBeInstanceOf(NotFoundError);
    await expect(admin.rotateSecret('nobody', undefined, ACTOR)).rejects.toBeInstanceOf(NotFoundError);
    await expect(admin.revokeSecret('Acme Bank', 'sec_nosuch', ACTOR)).rejects.toBeInstanceOf(NotFoundError);
    expect(await admin.get('nobody')).toBeUndefined();
  });

  it('when a secret is rotated, then old and new both sign and get tokens during the grace; the old revoked, it and its token are refused', async () => {
    const { creds: old } = await create('Rotating');
    const oldToken = (await tokenFor(h.url, old)).token!;
    const t0 = Date.now();
    const rotated = await admin.rotateSecret('Rotating', undefined, ACTOR);
    secrets.push(rotated.secret);
    const fresh = { apiKey: old.apiKey, secret: rotated.secret };
    // Default grace: one day.
    expect(Date.parse(rotated.previousValidUntil!) - t0).toBeGreaterThanOrEqual(86_400_000 - 5000);
    const view = (await admin.get('Rotating'))!;
    expect(view.secrets.map((s) => s.id)).toEqual([rotated.id, expect.any(String)]);
    for (const c of [old, fresh]) {
      expect(await legacyStatus(h.url, c)).toBe(200);
      expect(await legacyStatus(h.url, c, { omitTimestamp: true })).toBe(200);
      expect((await tokenFor(h.url, c)).status).toBe(200);
    }
    const freshToken = (await tokenFor(h.url, fresh)).token!;
    expect(await camaraStatus(h.url, oldToken)).toBe(200);

    // Two valid secrets: another rotation would cut the old one off unasked.
    await expect(admin.rotateSecret('Rotating', 60, ACTOR)).rejects.toBeInstanceOf(ConflictError);
    await admin.revokeSecret('Rotating', view.secrets[1].id, ACTOR);
    expect(await legacyStatus(h.url, old)).toBe(401);
    expect(await legacyStatus(h.url, old, { omitTimestamp: true })).toBe(401);
    expect((await tokenFor(h.url, old)).status).toBe(401);
    expect(await camaraStatus(h.url, oldToken)).toBe(401);
    // The positive control: the new secret and its token still work.
    expect(await legacyStatus(h.url, fresh)).toBe(200);
    expect(await camaraStatus(h.url, freshToken)).toBe(200);
  });

  it('when the grace is 0, then the previous secret stops at once', async () => {
    const { creds: old } = await create('NoGrace');
    const rotated = await admin.rotateSecret('NoGrace', 0, ACTOR);
    secrets.push(rotated.secret);
    expect(await legacyStatus(h.url, { apiKey: old.apiKey, secret: rotated.secret })).toBe(200);
    expect(await legacyStatus(h.url, old)).toBe(401);
    expect((await admin.get('NoGrace'))!.secrets).toHaveLength(1);
  });

  it('when the grace ends, then the previous secret stops on its own, with no change made', async () => {
    const { creds: old } = await create('ShortGrace');
    const rotated = await admin.rotateSecret('ShortGrace', 1, ACTOR);
    secrets.push(rotated.secret);
    const changes = (await admin.changes({ limit: 500 })).items.length;
    expect(await legacyStatus(h.url, old)).toBe(200);
    await until(async () => await legacyStatus(h.url, old) === 401, 'old secret expired', 10_000);
    expect((await tokenFor(h.url, old)).status).toBe(401);
    expect(await legacyStatus(h.url, { apiKey: old.apiKey, secret: rotated.secret })).toBe(200);
    expect((await admin.get('ShortGrace'))!.secrets).toHaveLength(1);
    expect((await admin.changes({ limit: 500 })).items).toHaveLength(changes);
  });

  it('when the last secret of an enabled partner is revoked, then 409; disabled, it may go', async () => {
    const { partner } = await create('LastOne');
    const [only] = partner.secrets;
    await expect(admin.revokeSecret('LastOne', only.id, ACTOR)).rejects.toBeInstanceOf(ConflictError);
    await admin.update('LastOne', { enabled: false }, ACTOR);
    await admin.revokeSecret('LastOne', only.id, ACTOR);
    expect((await admin.get('LastOne'))!.secrets).toEqual([]);
    // A new secret brings it back.
    const rotated = await admin.rotateSecret('LastOne', undefined, ACTOR);
    secrets.push(rotated.secret);
    expect(rotated.previousValidUntil).toBeNull();
    await admin.update('LastOne', { enabled: true }, ACTOR);
    expect(await legacyStatus(h.url, { apiKey: partner.apiKey, secret: rotated.secret })).toBe(200);
  });

  it('when a partner is disabled, then a token it already holds is refused within 2 s, as are its signatures and new tokens', async () => {
    const { creds } = await create('Switchable');
    const token = (await tokenFor(h.url, creds)).token!;
    expect(await camaraStatus(h.url, token)).toBe(200);
    await admin.update('Switchable', { enabled: false }, ACTOR);
    const ms = await timeUntil(async () => await camaraStatus(h.url, token) === 401, 'token refused', 2000);
    expect(ms).toBeLessThan(2000);
    expect(await legacyStatus(h.url, creds)).toBe(401);
    expect((await tokenFor(h.url, creds)).status).toBe(401);
    await admin.update('Switchable', { enabled: true, purpose: 'dpv:FraudPreventionAndDetection' }, ACTOR);
    expect(await camaraStatus(h.url, token)).toBe(200);
    expect(await admin.get('Switchable')).toMatchObject({ enabled: true, purpose: 'dpv:FraudPreventionAndDetection' });
  });

  it('when changes were made, then the change log lists them newest first, naming the actor, paged, with no secret anywhere', async () => {
    const first = await admin.changes({ limit: 3 });
    expect(first.items).toHaveLength(3);
    expect(first.items[0]).toMatchObject({ action: 'partner.update', partner: 'Switchable', actor: ACTOR });
    expect(first.items[0].before).toMatchObject({ enabled: false });
    expect(first.items[0].after).toMatchObject({ enabled: true, purpose: 'dpv:FraudPreventionAndDetection' });
    const rest = await admin.changes({ limit: 500, cursor: first.nextCursor! });
    const all = [...first.items, ...rest.items];
    expect(rest.nextCursor).toBeUndefined();
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    expect(all.map((e) => e.at)).toEqual([...all.map((e) => e.at)].sort().reverse());
    expect(all.filter((e) => e.partner === 'Rotating').map((e) => e.action)).toEqual(['secret.revoke', 'secret.rotate', 'partner.create']);
    const text = JSON.stringify(all);
    expect(secrets.length).toBeGreaterThanOrEqual(7);
    for (const s of secrets) expect(text).not.toContain(s);
    expect((await admin.changes({ limit: 500, partner: 'Rotating' })).items).toHaveLength(3);
    await expect(admin.changes({ limit: 5, cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(BadRequestError);
  });
});
