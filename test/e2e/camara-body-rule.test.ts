import { expectErrorInfo } from '../support/camara-scenarios';
import { SUBS, SubsHarness, startSubsHarness, subscriptionBody } from '../support/subscriptions-harness';

/*
 * CONTRACT §13's one body rule, over real HTTP for every CAMARA operation that takes a body:
 * a property the operation's schema does not declare, at any depth, is refused with 400
 * INVALID_ARGUMENT naming it; the same body without it is answered (the positive control, so
 * the refusal is the property's doing and nothing else's).
 */

const SINK = 'http://127.0.0.1:1/sink';

/** A valid body per operation, about demo numbers that exist. */
const VALID: [string, Record<string, unknown>][] = [
  ['/sim-swap/v2/check', { phoneNumber: '+255712000006', maxAge: 24 }],
  ['/sim-swap/v2/retrieve-date', { phoneNumber: '+255712000006' }],
  ['/kyc-tenure/v0.2/check-tenure', { phoneNumber: '+255712000001', tenureDate: '2024-01-01' }],
  ['/kyc-match/v0.4/match', { phoneNumber: '+255712000011', givenName: 'José' }],
  ['/device-swap/v1/check', { phoneNumber: '+255712000012', maxAge: 240 }],
  ['/device-swap/v1/retrieve-date', { phoneNumber: '+255712000012' }],
  ['/call-forwarding-signal/v0.4/unconditional-call-forwardings', { phoneNumber: '+255712000012' }],
  ['/call-forwarding-signal/v0.4/call-forwardings', { phoneNumber: '+255712000012' }],
  ['/number-recycling/v0.2/check', { phoneNumber: '+255712000012', specifiedDate: '2020-01-01' }],
  [SUBS, subscriptionBody(SINK, '+255712000001')],
];

/** Subscription bodies with an undeclared property inside a nested object, and the dotted name the answer gives. */
const NESTED: [string, Record<string, unknown>][] = [
  ['config.subscriptionDetail.imei', subscriptionBody(SINK, undefined, {}, { subscriptionDetail: { phoneNumber: '+255712000001', imei: '1' } })],
  ['config.initialEvent', subscriptionBody(SINK, '+255712000001', {}, { initialEvent: true })],
  ['sinkCredential.scope', subscriptionBody(SINK, '+255712000001', {
    sinkCredential: { credentialType: 'PLAIN', identifier: 'u', secret: 's', scope: 'x' },
  })],
];

describe('one body rule: every CAMARA body refuses properties its schema does not declare', () => {
  let h: SubsHarness;
  beforeAll(async () => { h = await startSubsHarness(); });
  afterAll(() => h?.close());

  const call = (path: string, body: unknown) => h.call(path, body, { token: h.subsToken });
  const messageOf = (r: { body: unknown }) => String((r.body as { message?: unknown }).message);

  it('when each valid body is sent as it is, then it is answered (200, 201 for a subscription)', async () => {
    for (const [path, body] of VALID) expect([path, (await call(path, body)).status]).toEqual([path, path === SUBS ? 201 : 200]);
  });

  it('when a body adds a top-level property its schema does not declare, then 400 INVALID_ARGUMENT naming it, on every API', async () => {
    for (const [path, body] of VALID) {
      const r = await call(path, { ...body, maxage: 24 });
      expectErrorInfo(r, 400, 'INVALID_ARGUMENT');
      expect([path, messageOf(r)]).toEqual([path, expect.stringContaining('"maxage"')]);
    }
  });

  it('when a property is undeclared inside a nested object of the subscription request, then 400 INVALID_ARGUMENT naming its path', async () => {
    for (const [name, body] of NESTED) {
      const r = await call(SUBS, body);
      expectErrorInfo(r, 400, 'INVALID_ARGUMENT');
      expect(messageOf(r)).toContain(`"${name}"`);
    }
  });

  it('when a KYC Match body holds an object where an attribute is, or a JSON __proto__ key, then 400 INVALID_ARGUMENT; the undeclared one is named', async () => {
    const nested = await call('/kyc-match/v0.4/match', { phoneNumber: '+255712000011', address: { streetName: 'Samora' } });
    expectErrorInfo(nested, 400, 'INVALID_ARGUMENT');
    const proto = await call('/kyc-match/v0.4/match', '{"phoneNumber":"+255712000011","givenName":"José","__proto__":{"x":1}}');
    expectErrorInfo(proto, 400, 'INVALID_ARGUMENT');
    expect(messageOf(proto)).toContain('"__proto__"');
  });
});
