import { createHash, createHmac } from 'node:crypto';
import { AuditRecorder } from '../../src/audit/audit-recorder';
import { AuditRecord } from '../../src/audit/ports/audit-trail';
import { CamaraCallDeps } from '../../src/camara/camara-call';
import { ForbiddenError, NotSubscriberError, RateLimitedError, UpstreamUnavailableError } from '../../src/errors/domain-errors';
import { IdDocumentMismatchError, InvalidTokenContextError } from '../../src/kyc-match/kyc-match-errors';
import { KycMatchService } from '../../src/kyc-match/kyc-match-service';
import { CustomerRecords, IdentityRecord } from '../../src/verification/ports/customer-records';
import { AccessGrant } from '../../src/oauth/ports/access-tokens';
import { Partner } from '../../src/partners/partners';
import { QuotaCounter } from '../../src/verification/ports/state-store';
import { HlrRecord } from '../../src/verification/ports/upstreams';
import { MemoryQuotaCounter } from '../../src/verification/state/memory-quota-counter';
import { VerificationService } from '../../src/verification/verification-service';

/*
 * The KYC Match service with fakes around it: the order of its checks, the per-number daily
 * limit's day boundary and key, and what reaches the audit record. The e2e suites show the same
 * through HTTP; these pin the edges fast.
 */

const PARTNER: Partner = { name: 'bank', apiKey: 'bank-key', secret: 's', operations: new Set(['kyc_match']), enabled: true, signature: 'md5' };
const RECORD: IdentityRecord = { idDocument: 'AB123', givenName: 'Amani', birthdate: '1990-05-17' };
const ACTIVE: HlrRecord = { status: 'active', paymentType: 'prepaid', activatedAtMs: 0 };

const KEY = Buffer.alloc(32, 7);

function setup(o: {
  record?: IdentityRecord | null; line?: HlrRecord | null; records?: boolean; admit?: () => Promise<void>; idDocumentRequired?: boolean; crmDown?: boolean;
} = {}) {
  let now = Date.UTC(2026, 10, 26, 23, 59, 0);
  const clock = { nowMs: () => now };
  const audit: AuditRecord[] = [];
  const asked: string[] = [];
  const quotaKeys: string[] = [];
  const memory = new MemoryQuotaCounter(clock, 1000);
  let crmDown = o.crmDown ?? false;
  const quotas: QuotaCounter = { take: (key, limit, end) => { quotaKeys.push(key); return memory.take(key, limit, end); }, giveBack: (key) => memory.giveBack(key) };
  const records: CustomerRecords = {
    identity: async (msisdn) => {
      asked.push(msisdn);
      if (crmDown) throw new UpstreamUnavailableError('crm unavailable (circuit open)', 5);
      return o.record === undefined ? RECORD : o.record;
    },
  };
  const verification = {
    hlrFactsWithTenure: async () => (o.line === undefined ? ACTIVE : o.line),
  } as unknown as VerificationService;
  const rateLimited: string[] = [];
  const call: CamaraCallDeps = {
    admit: o.admit ?? (async () => {}),
    audit: new AuditRecorder({ trail: { record: async (r) => { audit.push(r); }, healthy: () => true }, clock, failClosed: false }),
    plan: { countryCode: '255', nsnLength: 9 },
  };
  const service = new KycMatchService({
    verification, call, records: o.records === false ? undefined : records, quotas,
    metrics: { rateLimited: (op) => { rateLimited.push(op); } }, clock,
    settings: { scores: true, idDocumentRequired: o.idDocumentRequired ?? false, maxPerNumberPerDay: 2, allowanceKey: KEY },
  });
  return { service, audit, asked, quotaKeys, rateLimited, setNow: (ms: number) => { now = ms; }, setCrmDown: (down: boolean) => { crmDown = down; } };
}

const grant = (extra: Partial<AccessGrant> = {}): AccessGrant => ({ partner: PARTNER, scopes: new Set(['kyc-match:match']), ...extra });
const BODY = { phoneNumber: '+255712000011', givenName: 'amani', birthdate: '1990-05-18' };

describe('KycMatchService', () => {
  it('when a match is answered, then the audit record has the summary and the quota key holds no number', async () => {
    const s = setup();
    const a = await s.service.match(grant(), BODY, 'c1');
    expect(a.response).toEqual({ givenNameMatch: 'true', birthdateMatch: 'false' });
    expect(s.audit).toEqual([expect.objectContaining({ operation: 'kyc_match.match', msisdn: '255712000011', code: '00000', match: { compared: ['givenName', 'birthdate'], true: 1, false: 1, notAvailable: 0 } })]);
    expect(s.quotaKeys).toHaveLength(1);
    expect(s.quotaKeys[0]).toMatch(/^bank-key:km:2026-11-26:[A-Za-z0-9_-]{22}$/);
    expect(s.quotaKeys[0]).not.toContain('712000011');
  });

  it('when the counter key is made, then it is the HMAC of the day and number under the operator\'s key, not a plain SHA-256 of the number', async () => {
    const s = setup();
    await s.service.match(grant(), BODY, 'c1');
    const digest = s.quotaKeys[0].split(':').at(-1)!;
    expect(digest).toBe(createHmac('sha256', KEY).update('2026-11-26:255712000011').digest('base64url').slice(0, 22));
    for (const plain of ['255712000011', '+255712000011']) {
      for (const enc of ['hex', 'base64', 'base64url'] as const) expect(s.quotaKeys[0]).not.toContain(createHash('sha256').update(plain).digest(enc).slice(0, 16));
    }
  });

  it('when customer records are unavailable, then 503 and the use is given back: the day\'s allowance is still whole once they answer', async () => {
    const s = setup({ crmDown: true });
    for (let i = 0; i < 5; i++) await expect(s.service.match(grant(), BODY, 'c')).rejects.toBeInstanceOf(UpstreamUnavailableError);
    const none = setup({ records: false });
    for (let i = 0; i < 5; i++) await expect(none.service.match(grant(), BODY, 'c')).rejects.toBeInstanceOf(UpstreamUnavailableError);
    // Records back: both uses of the day (limit 2) are there, then 429.
    s.setCrmDown(false);
    await s.service.match(grant(), BODY, 'c');
    await s.service.match(grant(), BODY, 'c');
    await expect(s.service.match(grant(), BODY, 'c')).rejects.toBeInstanceOf(RateLimitedError);
    expect(s.audit.map((r) => r.httpStatus)).toEqual([503, 503, 503, 503, 503, 200, 200, 429]);
  });

  it('when the daily limit is spent, then 429 with Retry-After to midnight UTC, customer records not asked; the next UTC day counts afresh', async () => {
    const s = setup();
    await s.service.match(grant(), BODY, 'c');
    await s.service.match(grant(), BODY, 'c');
    const refused = await s.service.match(grant(), BODY, 'c').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterS).toBe(60);
    expect(s.asked).toHaveLength(2);
    expect(s.rateLimited).toEqual(['kyc_match']);
    expect(s.audit.map((r) => r.httpStatus)).toEqual([200, 200, 429]);
    s.setNow(Date.UTC(2026, 10, 27, 0, 0, 1));
    await expect(s.service.match(grant(), BODY, 'c')).resolves.toMatchObject({ msisdn: '255712000011' });
  });

  it('when the partner is refused (403/429 of its own), then nothing is counted against the number', async () => {
    const s = setup({ admit: async () => { throw new ForbiddenError('operation kyc_match is not allowed for this partner'); } });
    await expect(s.service.match(grant(), BODY, 'c')).rejects.toBeInstanceOf(ForbiddenError);
    expect(s.quotaKeys).toEqual([]);
    expect(s.asked).toEqual([]);
  });

  it('when the line is not a subscriber or terminated, then 404 before customer records are asked', async () => {
    for (const line of [null, { ...ACTIVE, status: 'terminated' as const }]) {
      const s = setup({ line });
      await expect(s.service.match(grant(), BODY, 'c')).rejects.toBeInstanceOf(NotSubscriberError);
      expect(s.asked).toEqual([]);
    }
  });

  it('when customer records hold no record, then every attribute sent is not_available; with none configured, 503', async () => {
    expect((await setup({ record: null }).service.match(grant(), BODY, 'c')).response).toEqual({ givenNameMatch: 'not_available', birthdateMatch: 'not_available' });
    await expect(setup({ records: false }).service.match(grant(), BODY, 'c')).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });

  it('when a three-legged token names a number, then the same body number is accepted and another is INVALID_TOKEN_CONTEXT, before anything is audited', async () => {
    const s = setup();
    await expect(s.service.match(grant({ phoneNumber: '+255712000011' }), BODY, 'c')).resolves.toBeDefined();
    await expect(s.service.match(grant({ phoneNumber: '+255712000012' }), BODY, 'c')).rejects.toBeInstanceOf(InvalidTokenContextError);
    expect(s.audit).toHaveLength(1);
  });

  it('when idDocument is required and differs, then 403 MISMATCH, audited without a summary', async () => {
    const s = setup({ idDocumentRequired: true });
    await expect(s.service.match(grant(), { ...BODY, idDocument: 'AB124' }, 'c')).rejects.toBeInstanceOf(IdDocumentMismatchError);
    expect(s.audit).toEqual([expect.objectContaining({ code: '11111', httpStatus: 403 })]);
    expect(s.audit[0].match).toBeUndefined();
  });
});
