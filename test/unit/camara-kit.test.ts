import { CamaraApiDeps, camaraKit } from '../../src/camara/camara-api-kit';
import { CamaraCallDeps, camaraCall, camaraCaller, requireScope, subscriberOf } from '../../src/camara/camara-call';
import { MissingIdentifierError, ServiceNotApplicableError, UnnecessaryIdentifierError } from '../../src/camara/camara-errors';
import { AuditRecorder } from '../../src/audit/audit-recorder';
import { AuditRecord } from '../../src/audit/ports/audit-trail';
import { ForbiddenError, NotSubscriberError, RateLimitedError } from '../../src/errors/domain-errors';
import { AccessGrant } from '../../src/oauth/ports/access-tokens';
import { Operation } from '../../src/partners/operation';
import { Partner } from '../../src/partners/partners';

/*
 * The shared CAMARA kit as a new CAMARA API uses it: camaraCall around the operation's own
 * work, requireScope before it, camaraKit to build both from the composition root's deps.
 */

const partner: Partner = { name: 'bank', apiKey: 'k', secret: 's', operations: new Set<Operation>(['kyc', 'sim_swap']), enabled: true, signature: 'md5' };
const grant = (phoneNumber?: string): AccessGrant => ({ partner, scopes: new Set(['sim-swap']), ...(phoneNumber ? { phoneNumber } : {}), purpose: 'dpv:FraudPreventionAndDetection' });

function setup(refuse?: Error) {
  const records: AuditRecord[] = [];
  const admitted: Array<readonly Operation[]> = [];
  const audit = new AuditRecorder({ trail: { record: (r) => { records.push(r); return Promise.resolve(); }, healthy: () => true }, clock: { nowMs: () => 0 }, failClosed: false });
  const deps: CamaraCallDeps = {
    admit: async (_p, operations) => {
      admitted.push(operations);
      if (refuse) throw refuse;
    },
    audit,
    plan: { countryCode: '255', nsnLength: 9 },
  };
  const call = (g: AccessGrant, phoneNumber?: string) => ({ grant: g, phoneNumber, operation: 'check-device', partnerOperation: 'sim_swap' as const, correlator: 'c-1' });
  return { deps, records, admitted, call };
}

describe('camaraCall', () => {
  it('when the body names a number of ours, then the work gets its msisdn inside one audited, admitted call', async () => {
    const { deps, records, admitted, call } = setup();
    const seen: string[] = [];
    await expect(camaraCall(deps, call(grant(), '+255712000001'), async (msisdn) => { seen.push(msisdn); return 'answer'; })).resolves.toBe('answer');
    expect(seen).toEqual(['255712000001']);
    expect(admitted).toEqual([['sim_swap']]);
    expect(records.map((r) => [r.interface, r.operation, r.msisdn, r.code, r.correlator, r.purpose])).toEqual([
      ['camara', 'sim_swap.check-device', '255712000001', '00000', 'c-1', 'dpv:FraudPreventionAndDetection'],
    ]);
  });

  it('when a three-legged token names the number, then the body must not; one of the two must, and name a number of ours', async () => {
    const { deps, records, admitted, call } = setup();
    const work = async (msisdn: string) => msisdn;
    await expect(camaraCall(deps, call(grant('+255712000001')), work)).resolves.toBe('255712000001');
    await expect(camaraCall(deps, call(grant('+255712000001'), '+255712000001'), work)).rejects.toBeInstanceOf(UnnecessaryIdentifierError);
    await expect(camaraCall(deps, call(grant()), work)).rejects.toBeInstanceOf(MissingIdentifierError);
    await expect(camaraCall(deps, call(grant(), '+254712000001'), work)).rejects.toBeInstanceOf(ServiceNotApplicableError);
    // Only the call that named a number of ours was admitted and recorded.
    expect([admitted.length, records.length]).toEqual([1, 1]);
  });

  it('when an API gives its own subject rule and an audit summary, then camaraCall uses them', async () => {
    const { deps, records, call } = setup();
    const bothAllowed = (token: string | undefined, body: string | undefined) => token ?? body ?? '';
    const summary = { compared: ['givenName'], true: 1, false: 0, notAvailable: 0 };
    const answer = await camaraCall(deps, { ...call(grant('+255712000001'), '+255712000001'), subject: bothAllowed }, async (msisdn) => msisdn, () => summary);
    expect(answer).toBe('255712000001');
    expect(records.map((r) => r.match)).toEqual([summary]);
  });

  it('when the partner is refused admission, then the work never runs and the refusal is recorded', async () => {
    const { deps, records, call } = setup(new RateLimitedError('rate limit exceeded', 1));
    let ran = false;
    await expect(camaraCall(deps, call(grant(), '+255712000001'), async () => { ran = true; })).rejects.toBeInstanceOf(RateLimitedError);
    expect(ran).toBe(false);
    expect(records.map((r) => [r.operation, r.httpStatus])).toEqual([['sim_swap.check-device', 429]]);
  });
});

describe('camaraCaller', () => {
  it('when an API\'s caller is bound, then every call spends its declared registry operation and is audited under the operation named', async () => {
    const { deps, records, admitted } = setup();
    const call = camaraCaller(deps, 'device-swap');
    await call({ grant: grant(), phoneNumber: '+255712000001', operation: 'retrieve-date', correlator: 'c-1' }, async () => 'a');
    await call({ grant: grant(), phoneNumber: '+255712000001', operation: 'check', correlator: 'c-2' }, async () => 'b');
    expect(admitted).toEqual([['device_swap'], ['device_swap']]);
    expect(records.map((r) => [r.operation, r.correlator])).toEqual([['device_swap.retrieve-date', 'c-1'], ['device_swap.check', 'c-2']]);
  });

  it('when an API binds its own subject rule, then each call uses it and passes the audit summary on', async () => {
    const { deps, records } = setup();
    const bothAllowed = (token: string | undefined, body: string | undefined) => token ?? body ?? '';
    const summary = { compared: ['givenName'], true: 1, false: 0, notAvailable: 0 };
    const call = camaraCaller(deps, 'kyc-match', { subject: bothAllowed });
    const answer = await call({ grant: grant('+255712000001'), phoneNumber: '+255712000001', operation: 'match', correlator: 'c-1' }, async (msisdn) => msisdn, () => summary);
    expect(answer).toBe('255712000001');
    expect(records.map((r) => [r.operation, r.match])).toEqual([['kyc_match.match', summary]]);
  });
});

describe('requireScope and subscriberOf', () => {
  it('when the token holds none of the scopes, then 403 naming them; any one of them suffices', () => {
    expect(() => requireScope(grant(), ['device-swap:check'])).toThrow(ForbiddenError);
    expect(() => requireScope(grant(), ['device-swap:check'])).toThrow(/device-swap:check/);
    expect(() => requireScope(grant(), ['device-swap:check', 'sim-swap'])).not.toThrow();
  });

  it('when the HLR knows no line or a terminated one, then it is not a subscriber', () => {
    expect(() => subscriberOf(null)).toThrow(NotSubscriberError);
    expect(() => subscriberOf({ status: 'terminated', paymentType: 'prepaid' })).toThrow(NotSubscriberError);
    expect(subscriberOf({ status: 'suspended', paymentType: 'business' }).status).toBe('suspended');
  });
});

describe('camaraKit', () => {
  it('when built from the root\'s deps and config, then admission is the verification service\'s and the plan and body limit are the settings\'', async () => {
    const admitted: unknown[] = [];
    const verification = { admit: async (...args: unknown[]) => { admitted.push(args); } } as unknown as CamaraApiDeps['verification'];
    const deps = { verification, audit: {} as AuditRecorder, tokens: { verify: () => Promise.reject(new Error('unused')) }, clock: { nowMs: () => 0 }, logger: {} } as unknown as CamaraApiDeps;
    const kit = camaraKit(deps, { COUNTRY_CODE: '44', NSN_LENGTH: 10, BODY_LIMIT_BYTES: 4096 });
    await kit.call.admit(partner, ['kyc']);
    expect(admitted).toEqual([[partner, ['kyc']]]);
    expect(kit.call.plan).toEqual({ countryCode: '44', nsnLength: 10 });
    expect(kit.routes.bodyLimitBytes).toBe(4096);
    expect(kit.routes.tokens).toBe(deps.tokens);
  });
});
