import { MemoryStateStore } from '../../src/verification/state/memory-state-store';
import { MissingIdentifierError, OutOfRangeError, ServiceNotApplicableError, UnnecessaryIdentifierError } from '../../src/camara/camara-errors';
import { AuditRecorder } from '../../src/audit/audit-recorder';
import { SimSwapService } from '../../src/sim-swap/sim-swap-service';
import { KycTenureService } from '../../src/kyc-tenure/kyc-tenure-service';
import { AuditRecord } from '../../src/audit/ports/audit-trail';
import { encodeHlr, encodeSim } from '../../src/verification/fact-codec';
import { BadRequestError, ForbiddenError, NotSubscriberError, RateLimitedError } from '../../src/errors/domain-errors';
import { AccessGrant } from '../../src/oauth/ports/access-tokens';
import { noopMetrics } from '../../src/verification/ports/metrics';
import { Partner } from '../../src/partners/partners';
import { HlrRecord, SimRecord } from '../../src/verification/ports/upstreams';
import { VerificationService } from '../../src/verification/verification-service';
import { createZonedCalendar } from '../../src/kernel/zoned-date';

const H = 3_600_000;
const D = 24 * H;
const NOW = Date.parse('2026-11-20T08:15:00Z');

function table<T>(rows: Record<string, T>) {
  const u = { calls: 0, rows, async lookup(m: string): Promise<T | null> { u.calls++; return u.rows[m] ?? null; } };
  return u;
}

function setup(opts: { monitoredDays?: number; timeZone?: string; partner?: Partial<Partner> } = {}) {
  const clock = { t: NOW, nowMs() { return this.t; } };
  const hlr = table<HlrRecord>({
    '255712000001': { status: 'active', paymentType: 'prepaid', activatedAtMs: NOW - 400 * D },
    '255712000002': { status: 'terminated', paymentType: 'postpaid', activatedAtMs: NOW - 400 * D },
    '255712000003': { status: 'suspended', paymentType: 'business', activatedAtMs: null },
    '255712000004': { status: 'active', paymentType: 'postpaid', activatedAtMs: NOW - 2 * D },
  });
  const sim = table<SimRecord>({
    '255712000001': { lastSimSwapAtMs: NOW - 3 * H, simActivatedAtMs: NOW - 3 * H },
    '255712000002': { lastSimSwapAtMs: null, simActivatedAtMs: NOW - 400 * D },
    '255712000003': { lastSimSwapAtMs: null, simActivatedAtMs: null },
    '255712000004': { lastSimSwapAtMs: null, simActivatedAtMs: NOW - 2 * D },
  });
  const store = new MemoryStateStore({ clock, maxCacheEntries: 1000, maxTxnEntries: 1000 });
  const verification = new VerificationService({
    hlr, sim, store, clock, metrics: noopMetrics,
    settings: { kycCacheTtlS: 300, kycStaleS: 3600, simSwapCacheTtlS: 30, negativeCacheTtlS: 60, simSwapMaxAgeHours: 240, txnTtlS: 86400, txnInFlightTtlS: 60 },
  });
  const records: AuditRecord[] = [];
  const audit = new AuditRecorder({ trail: { record: (r) => { records.push(r); return Promise.resolve(); }, healthy: () => true }, clock, failClosed: false });
  const call = { admit: verification.admit.bind(verification), audit, plan: { countryCode: '255', nsnLength: 9 } };
  const simSwap = new SimSwapService({ verification, clock, call, ...(opts.monitoredDays === undefined ? {} : { monitoredDays: opts.monitoredDays }) });
  const tenure = new KycTenureService({ verification, clock, call, calendar: createZonedCalendar(opts.timeZone ?? 'UTC') });
  // The three operations on one object: SIM Swap and KYC Tenure share the cache, the audit and the rate limit.
  const service = {
    retrieveDate: simSwap.retrieveDate.bind(simSwap),
    check: simSwap.check.bind(simSwap),
    checkTenure: tenure.checkTenure.bind(tenure),
  };
  const partner: Partner = { name: 'bank', apiKey: 'k', secret: 's', operations: new Set(['kyc', 'sim_swap']), enabled: true, signature: 'md5', ...opts.partner };
  const grant = (scopes: string[], phoneNumber?: string, purpose?: string): AccessGrant => ({ partner, scopes: new Set(scopes), ...(phoneNumber ? { phoneNumber } : {}), ...(purpose ? { purpose } : {}) });
  return { clock, hlr, sim, store, service, grant, records };
}

const ALL = ['sim-swap', 'kyc-tenure:check-tenure'];
/** The answer without the msisdn it names (checked once below). */
const strip = <T extends { msisdn: string }>({ msisdn: _msisdn, ...rest }: T) => rest;

describe('CAMARA retrieve-date', () => {
  it("when a date is asked for, then it is the latest swap, else the current SIM's activation, else null", async () => {
    const { service, grant } = setup();
    expect(strip(await service.retrieveDate(grant(ALL), { phoneNumber: '+255712000001' }, 'corr-1'))).toEqual({ latestSimChangeMs: NOW - 3 * H });
    expect(strip(await service.retrieveDate(grant(ALL), { phoneNumber: '+255712000004' }, 'corr-1'))).toEqual({ latestSimChangeMs: NOW - 2 * D });
    expect(strip(await service.retrieveDate(grant(ALL), { phoneNumber: '+255712000003' }, 'corr-1'))).toEqual({ latestSimChangeMs: null });
  });

  it('when it answers, then it names the normalised msisdn it answered about', async () => {
    const { service, grant } = setup();
    expect((await service.retrieveDate(grant(ALL, '+255712000001'), {}, 'corr-1')).msisdn).toBe('255712000001');
    expect((await service.check(grant(ALL), { phoneNumber: '+255712000004' }, 'corr-1')).msisdn).toBe('255712000004');
    expect((await service.checkTenure(grant(ALL), { phoneNumber: '+255712000003', tenureDate: '2020-01-01' }, 'corr-1')).msisdn).toBe('255712000003');
  });

  it('when a period is monitored, then a change older than it is null with monitoredPeriod', async () => {
    const { service, grant } = setup({ monitoredDays: 1 });
    expect(strip(await service.retrieveDate(grant(ALL), { phoneNumber: '+255712000004' }, 'corr-1'))).toEqual({ latestSimChangeMs: null, monitoredPeriodDays: 1 });
    expect(strip(await service.retrieveDate(grant(ALL), { phoneNumber: '+255712000001' }, 'corr-1'))).toEqual({ latestSimChangeMs: NOW - 3 * H });
  });

  it("when the line is terminated or the number unknown, then it is not found; when it is another country's, then not applicable", async () => {
    const { service, grant } = setup();
    await expect(service.retrieveDate(grant(ALL), { phoneNumber: '+255712000002' }, 'corr-1')).rejects.toBeInstanceOf(NotSubscriberError);
    await expect(service.retrieveDate(grant(ALL), { phoneNumber: '+255712999999' }, 'corr-1')).rejects.toBeInstanceOf(NotSubscriberError);
    await expect(service.retrieveDate(grant(ALL), { phoneNumber: '+25571200000' }, 'corr-1')).rejects.toBeInstanceOf(NotSubscriberError);
    await expect(service.retrieveDate(grant(ALL), { phoneNumber: '+254712000001' }, 'corr-1')).rejects.toBeInstanceOf(ServiceNotApplicableError);
  });

  it('when the token is three-legged, then the number comes from it, never from both', async () => {
    const { service, grant } = setup();
    expect(strip(await service.retrieveDate(grant(ALL, '+255712000001'), {}, 'corr-1'))).toEqual({ latestSimChangeMs: NOW - 3 * H });
    await expect(service.retrieveDate(grant(ALL, '+255712000001'), { phoneNumber: '+255712000001' }, 'corr-1')).rejects.toBeInstanceOf(UnnecessaryIdentifierError);
    await expect(service.retrieveDate(grant(ALL), {}, 'corr-1')).rejects.toBeInstanceOf(MissingIdentifierError);
  });

  it('when the token lacks a SIM-swap scope or the partner lacks sim_swap, then it is refused', async () => {
    await expect(setup().service.retrieveDate(setup().grant(['sim-swap:check']), { phoneNumber: '+255712000001' }, 'corr-1')).rejects.toBeInstanceOf(ForbiddenError);
    const s = setup({ partner: { operations: new Set(['kyc']) } });
    await expect(s.service.retrieveDate(s.grant(['sim-swap:retrieve-date']), { phoneNumber: '+255712000001' }, 'corr-1')).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('when the legacy operations cached a number, then the cache is shared, and an entry cached before the tenure fields is refetched', async () => {
    const { service, grant, hlr, sim, store } = setup();
    await store.cache.set('kyc:255712000004', { value: encodeHlr({ status: 'active', paymentType: 'postpaid' }), storedAtMs: NOW }, 300, null);
    await store.cache.set('sim:255712000004', { value: encodeSim({ lastSimSwapAtMs: null }), storedAtMs: NOW }, 30, null);
    expect(strip(await service.retrieveDate(grant(ALL), { phoneNumber: '+255712000004' }, 'corr-1'))).toEqual({ latestSimChangeMs: NOW - 2 * D });
    expect([hlr.calls, sim.calls]).toEqual([1, 1]);
    await service.retrieveDate(grant(ALL), { phoneNumber: '+255712000004' }, 'corr-1');
    expect([hlr.calls, sim.calls]).toEqual([1, 1]);
  });

  it('when a partner asks, then it is rate limited like the legacy operations', async () => {
    const { service, grant } = setup({ partner: { rateLimit: { perSecond: 1, burst: 1 } } });
    await service.retrieveDate(grant(ALL), { phoneNumber: '+255712000001' }, 'corr-1');
    await expect(service.retrieveDate(grant(ALL), { phoneNumber: '+255712000001' }, 'corr-1')).rejects.toBeInstanceOf(RateLimitedError);
  });
});

describe('CAMARA check', () => {
  it('when the latest change lies within maxAge (default 240 h), then swapped is true, and only then; a new line counts', async () => {
    const { service, grant } = setup();
    const check = (phoneNumber: string, maxAge?: number) => service.check(grant(ALL), maxAge === undefined ? { phoneNumber } : { phoneNumber, maxAge }, 'corr-1');
    expect(strip(await check('+255712000001'))).toEqual({ swapped: true });
    expect(strip(await check('+255712000001', 3))).toEqual({ swapped: true });
    expect(strip(await check('+255712000001', 2))).toEqual({ swapped: false });
    expect(strip(await check('+255712000004'))).toEqual({ swapped: true });
    expect(strip(await check('+255712000004', 47))).toEqual({ swapped: false });
    expect(strip(await check('+255712000003', 2400))).toEqual({ swapped: false });
  });

  it('when maxAge is of a wrong type, then INVALID_ARGUMENT; when outside 1–2400 or the monitored period, then OUT_OF_RANGE', async () => {
    const { service, grant } = setup();
    for (const maxAge of ['24', 1.5, null, true]) await expect(service.check(grant(ALL), { phoneNumber: '+255712000001', maxAge }, 'corr-1')).rejects.toBeInstanceOf(BadRequestError);
    for (const maxAge of [0, -1, 2401, 100000]) await expect(service.check(grant(ALL), { phoneNumber: '+255712000001', maxAge }, 'corr-1')).rejects.toBeInstanceOf(OutOfRangeError);
    const m = setup({ monitoredDays: 5 });
    await expect(m.service.check(m.grant(ALL), { phoneNumber: '+255712000001', maxAge: 121 }, 'corr-1')).rejects.toThrow(/5 days/);
    expect(strip(await m.service.check(m.grant(ALL), { phoneNumber: '+255712000004' }, 'corr-1'))).toEqual({ swapped: true });
  });
});

describe('CAMARA check-tenure', () => {
  it('when the tenure began on or before the start of tenureDate, then true; when later or unknown, then false', async () => {
    const { service, grant } = setup();
    const tenure = (phoneNumber: string, tenureDate: string) => service.checkTenure(grant(ALL), { phoneNumber, tenureDate }, 'corr-1');
    // Activated 2025-10-16T08:15Z: that day had begun; the next one had not.
    expect(strip(await tenure('+255712000001', '2025-10-17'))).toEqual({ tenureDateCheck: true, contractType: 'PAYG' });
    expect(strip(await tenure('+255712000001', '2025-10-16'))).toEqual({ tenureDateCheck: false, contractType: 'PAYG' });
    expect(strip(await tenure('+255712000004', '2026-11-20'))).toEqual({ tenureDateCheck: true, contractType: 'PAYM' });
    expect(strip(await tenure('+255712000003', '2000-01-01'))).toEqual({ tenureDateCheck: false, contractType: 'Business' });
  });

  it('when comparing, then the start of tenureDate is taken in TIMEZONE', async () => {
    // Activated 2025-10-16T08:15Z = 22:15 on the 15th in Honolulu (-10:00), where the 16th begins at 10:00Z.
    const hnl = setup({ timeZone: 'Pacific/Honolulu' });
    expect(strip(await hnl.service.checkTenure(hnl.grant(ALL), { phoneNumber: '+255712000001', tenureDate: '2025-10-16' }, 'corr-1'))).toMatchObject({ tenureDateCheck: true });
    expect(strip(await hnl.service.checkTenure(hnl.grant(ALL), { phoneNumber: '+255712000001', tenureDate: '2025-10-17' }, 'corr-1'))).toMatchObject({ tenureDateCheck: true });
    const utc = setup();
    expect(strip(await utc.service.checkTenure(utc.grant(ALL), { phoneNumber: '+255712000001', tenureDate: '2025-10-16' }, 'corr-1'))).toMatchObject({ tenureDateCheck: false });
  });

  it('when tenureDate is missing, not a real full-date or in the future (in TIMEZONE), then it is refused', async () => {
    const { service, grant } = setup();
    for (const body of [{}, { tenureDate: '2025-02-30' }, { tenureDate: '2025-1-01' }, { tenureDate: 20250101 }, { tenureDate: '2025-01-01T00:00:00Z' }]) {
      await expect(service.checkTenure(grant(ALL), { phoneNumber: '+255712000001', ...body }, 'corr-1')).rejects.toBeInstanceOf(BadRequestError);
    }
    await expect(service.checkTenure(grant(ALL), { phoneNumber: '+255712000001', tenureDate: '2026-11-21' }, 'corr-1')).rejects.toBeInstanceOf(OutOfRangeError);
    const kiritimati = setup({ timeZone: 'Pacific/Kiritimati' }); // +14:00: already 2026-11-20 22:15 there
    expect(strip(await kiritimati.service.checkTenure(kiritimati.grant(ALL), { phoneNumber: '+255712000001', tenureDate: '2026-11-20' }, 'corr-1'))).toMatchObject({ tenureDateCheck: true });
    await expect(setup().service.checkTenure(grant(['sim-swap']), { phoneNumber: '+255712000001', tenureDate: '2020-01-01' }, 'corr-1')).rejects.toBeInstanceOf(ForbiddenError);
  });
});

describe('zoned calendar', () => {
  it.each<[string, string, string]>([
    ['UTC', '2026-03-29', '2026-03-29T00:00:00.000Z'],
    ['Africa/Dar_es_Salaam', '2026-01-01', '2025-12-31T21:00:00.000Z'],
    ['Europe/Berlin', '2026-03-29', '2026-03-28T23:00:00.000Z'],
    ['Europe/Berlin', '2026-03-30', '2026-03-29T22:00:00.000Z'],
    ['America/Santiago', '2026-09-06', '2026-09-06T04:00:00.000Z'],
  ])('in %s, %s starts at %s', (tz, date, iso) => {
    expect(new Date(createZonedCalendar(tz).startOfDayMs(date)).toISOString()).toBe(iso);
  });
});

describe('CAMARA audit records (CONTRACT §9)', () => {
  it('when a verification is answered, then it is recorded once, as interface camara, with the token purpose and the normalised number', async () => {
    const { service, grant, records } = setup();
    await service.check(grant(ALL, undefined, 'dpv:FraudPreventionAndDetection'), { phoneNumber: '+255712000001' }, 'corr-1');
    await expect(service.retrieveDate(grant(ALL), { phoneNumber: '+255712999999' }, 'corr-2')).rejects.toBeInstanceOf(NotSubscriberError);
    expect(records.map((r) => ({ i: r.interface, op: r.operation, m: r.msisdn, code: r.code, status: r.httpStatus, purpose: r.purpose, c: r.correlator })))
      .toEqual([
        { i: 'camara', op: 'sim_swap.check', m: '255712000001', code: '00000', status: 200, purpose: 'dpv:FraudPreventionAndDetection', c: 'corr-1' },
        { i: 'camara', op: 'sim_swap.retrieve-date', m: '255712999999', code: '11111', status: 404, purpose: null, c: 'corr-2' },
      ]);
  });

  it('when a request names no number of ours (422) or lacks the scope (403 before the number), then nothing is recorded', async () => {
    const { service, grant, records } = setup();
    await expect(service.check(grant(ALL), { phoneNumber: '+4412345678' }, 'c')).rejects.toBeInstanceOf(ServiceNotApplicableError);
    await expect(service.check(grant(['kyc-tenure:check-tenure']), { phoneNumber: '+255712000001' }, 'c')).rejects.toBeInstanceOf(ForbiddenError);
    expect(records).toEqual([]);
  });
});
