import { AuditRecorder, AuditUnavailableError } from '../../src/audit/audit-recorder';
import { BadRequestError, ConflictError, ForbiddenError, NotSubscriberError, RateLimitedError, UpstreamUnavailableError } from '../../src/errors/domain-errors';
import { AuditRecord } from '../../src/audit/ports/audit-trail';
import { Partner } from '../../src/partners/partners';

const partner = (purpose?: string): Partner => ({
  name: 'bank', apiKey: 'bank-key', secret: 's', operations: new Set(['kyc', 'sim_swap']), enabled: true, signature: 'md5',
  ...(purpose ? { purpose } : {}),
});

function setup(failClosed = false) {
  const records: AuditRecord[] = [];
  let healthy = true;
  const recorder = new AuditRecorder({
    trail: { record: (r) => { records.push(r); return Promise.resolve(); }, healthy: () => healthy }, clock: { nowMs: () => Date.UTC(2026, 10, 24) }, failClosed,
  });
  const subject = (p = partner('dpv:Registry'), purpose?: string) => ({
    partner: p, operation: 'kyc', msisdn: '255712000001', txnId: 't1',
    context: { interface: 'legacy' as const, correlator: 'c1', ...(purpose ? { purpose } : {}) },
  });
  return { records, recorder, subject, setHealthy: (v: boolean) => { healthy = v; } };
}

describe('AuditRecorder', () => {
  it('when fields of one request are refused (403, 429) or the request is refused as a whole, then the request leaves one record; its other failures each leave theirs', async () => {
    const { records, recorder, subject } = setup();
    const request = { refusalRecorded: false };
    const field = { ...subject(), request };
    await recorder.failed(field, new ForbiddenError('operation sim_swap is not allowed for this partner'));
    await recorder.failed(field, new RateLimitedError('rate limit exceeded', 1));
    await recorder.refused(field, new BadRequestError('over the burst'));
    await recorder.failed(field, new NotSubscriberError('msisdn is not a subscriber'));
    expect(records.map((r) => r.httpStatus)).toEqual([403, 404]);
    // Without a request (REST, CAMARA: one number per request), every refusal is its own.
    await recorder.failed(subject(), new ForbiddenError('x'));
    await recorder.failed(subject(), new ForbiddenError('x'));
    expect(records.map((r) => r.httpStatus)).toEqual([403, 404, 403, 403]);
  });

  it('when a verification succeeds, then it is recorded once with every field, with the registry purpose when the credentials carry none', async () => {
    const { records, recorder, subject } = setup();
    await expect(recorder.track(subject(), async () => 'ok')).resolves.toBe('ok');
    expect(records).toHaveLength(1);
    const { id, ...rest } = records[0];
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([rest]).toEqual([{
      timeMs: Date.UTC(2026, 10, 24), partner: 'bank', interface: 'legacy', operation: 'kyc',
      msisdn: '255712000001', code: '00000', httpStatus: 200, txnId: 't1', correlator: 'c1', purpose: 'dpv:Registry', replayed: false,
    }]);
  });

  it("when both a token and the registry give a purpose, then the token's wins; when neither does, then it is null", async () => {
    const { records, recorder, subject } = setup();
    await recorder.track(subject(partner('dpv:Registry'), 'dpv:FraudPreventionAndDetection'), async () => 1);
    await recorder.track(subject(partner()), async () => 1);
    expect(records.map((r) => r.purpose)).toEqual(['dpv:FraudPreventionAndDetection', null]);
  });

  it('when a verification fails, then it is recorded with its own code and status (a replayed 404 as replayed) and rethrown', async () => {
    const { records, recorder, subject } = setup();
    const replayed = new NotSubscriberError('msisdn is not a subscriber');
    replayed.replayed = true;
    for (const err of [new ConflictError('x'), replayed, new UpstreamUnavailableError('down'), new Error('bug')]) {
      await expect(recorder.track(subject(), () => Promise.reject(err))).rejects.toBe(err);
    }
    expect(records.map((r) => [r.code, r.httpStatus, r.replayed])).toEqual([
      ['11111', 409, false], ['11111', 404, true], ['9999', 503, false], ['9999', 500, false],
    ]);
  });

  it('when a success is replayed, then its record is marked replayed', async () => {
    const { records, recorder, subject } = setup();
    await recorder.track(subject(), async () => ({ replayed: true }), (a) => a.replayed);
    expect(records[0].replayed).toBe(true);
  });

  it('when the trail is unhealthy and fail-closed, then the request is refused with 503 before any work and nothing is recorded', async () => {
    const { records, recorder, subject, setHealthy } = setup(true);
    setHealthy(false);
    const work = jest.fn(async () => 1);
    await expect(recorder.track(subject(), work)).rejects.toBeInstanceOf(AuditUnavailableError);
    expect(work).not.toHaveBeenCalled();
    expect(records).toEqual([]);
    setHealthy(true);
    await recorder.track(subject(), work);
    expect(records).toHaveLength(1);
  });

  it('when the trail is unhealthy and fail-open (the default), then the request is served and its record spooled', async () => {
    const { records, recorder, subject, setHealthy } = setup(false);
    setHealthy(false);
    await recorder.track(subject(), async () => 1);
    expect(records).toHaveLength(1);
  });
});
