import { parseIdentityBody } from '../../src/verification/upstream/crm-http-client';
import { parseHlrBody } from '../../src/verification/upstream/hlr-http-client';
import { isNotASubscriber } from '../../src/verification/upstream/http-upstream';
import { parseSimBody } from '../../src/verification/upstream/sim-http-client';

describe('upstream body parsing: anything off-contract is a fault, never a fact', () => {
  it('when an HLR record is read, then activatedAt absent or null is unknown', () => {
    expect(parseHlrBody({ msisdn: '255712000001', status: 'suspended', paymentType: 'postpaid' }))
      .toEqual({ status: 'suspended', paymentType: 'postpaid', activatedAtMs: null, deviceFirstSeenAtMs: null, deviceChangedAtMs: null, callForwarding: null });
    expect(parseHlrBody({ status: 'active', paymentType: 'prepaid', activatedAt: null }))
      .toEqual({ status: 'active', paymentType: 'prepaid', activatedAtMs: null, deviceFirstSeenAtMs: null, deviceChangedAtMs: null, callForwarding: null });
  });

  it('when an HLR record has a business payment type and a tenure start in any offset, then both are read', () => {
    expect(parseHlrBody({ status: 'active', paymentType: 'business', activatedAt: '2020-01-02T03:04:05.5+03:00' }))
      .toEqual({ status: 'active', paymentType: 'business', activatedAtMs: Date.parse('2020-01-02T00:04:05.5Z'), deviceFirstSeenAtMs: null, deviceChangedAtMs: null, callForwarding: null });
  });

  it('when the HLR reports device and forwarding facts, then they are read; forwarding in a fixed order', () => {
    expect(parseHlrBody({
      status: 'active', paymentType: 'prepaid', deviceFirstSeenAt: '2020-01-01T00:00:00Z', deviceChangedAt: null,
      callForwarding: ['conditional_no_answer', 'unconditional'],
    })).toMatchObject({ deviceFirstSeenAtMs: Date.parse('2020-01-01T00:00:00Z'), deviceChangedAtMs: null, callForwarding: ['unconditional', 'conditional_no_answer'] });
    expect(parseHlrBody({ status: 'active', paymentType: 'prepaid', callForwarding: [] })).toMatchObject({ callForwarding: [] });
  });

  it.each([null, 'text', {}, { status: 'ACTIVE', paymentType: 'prepaid' },
    { status: 'active', paymentType: 'prepaid', callForwarding: 'unconditional' }, { status: 'active', paymentType: 'prepaid', callForwarding: ['always'] },
    { status: 'active', paymentType: 'prepaid', deviceChangedAt: 'yesterday' }, { status: 'active', paymentType: 'credit' },
    { status: 'active', paymentType: 'prepaid', activatedAt: '2020-01-02' }, { status: 'active', paymentType: 'prepaid', activatedAt: 0 },
    { status: 'active', paymentType: 'prepaid', activatedAt: 'now-3d' }])('rejects the HLR body %p', (b) => {
    expect(() => parseHlrBody(b)).toThrow();
  });

  it('when a SIM record has a swap date in any offset or null, then it is read, and simActivatedAt absent or null is unknown', () => {
    expect(parseSimBody({ lastSimSwapAt: '2026-11-20T11:15:00+03:00' }))
      .toEqual({ lastSimSwapAtMs: Date.parse('2026-11-20T08:15:00Z'), simActivatedAtMs: null });
    expect(parseSimBody({ lastSimSwapAt: null, simActivatedAt: null })).toEqual({ lastSimSwapAtMs: null, simActivatedAtMs: null });
  });

  it("when a SIM record has the current SIM's activation, then it is read", () => {
    expect(parseSimBody({ lastSimSwapAt: null, simActivatedAt: '2025-05-01T00:00:00Z' }))
      .toEqual({ lastSimSwapAtMs: null, simActivatedAtMs: Date.parse('2025-05-01T00:00:00Z') });
  });

  it.each([null, {}, { lastSimSwapAt: 'yesterday' }, { lastSimSwapAt: 12 }, { lastSimSwapAt: '2026-11-20' },
    { lastSimSwapAt: null, simActivatedAt: 'soon' }, { lastSimSwapAt: null, simActivatedAt: true }])('rejects the SIM body %p', (b) => {
    expect(() => parseSimBody(b)).toThrow();
  });
});

describe('isNotASubscriber (which 404 means "not a subscriber")', () => {
  const asked = '255712000001';
  it.each<{ what: string; type: unknown; body: unknown; expected: boolean }>([
    { what: 'the simulator\'s JSON naming the number', type: 'application/json', body: { error: 'not_found', msisdn: asked }, expected: true },
    { what: 'JSON with a charset naming the number', type: 'application/json; charset=utf-8', body: { msisdn: asked }, expected: true },
    { what: 'a +json type naming the number', type: 'application/problem+json', body: { msisdn: asked }, expected: true },
    { what: 'an HTML page', type: 'text/html', body: '<html>404</html>', expected: false },
    { what: 'an HTML type around a JSON-looking body', type: 'text/html', body: { msisdn: asked }, expected: false },
    { what: 'no content type', type: undefined, body: { msisdn: asked }, expected: false },
    { what: 'an empty body', type: 'application/json', body: '', expected: false },
    { what: 'JSON of another shape', type: 'application/json', body: { error: 'not found' }, expected: false },
    { what: 'JSON naming another number', type: 'application/json', body: { msisdn: '255712000002' }, expected: false },
    { what: 'a JSON array', type: 'application/json', body: [asked], expected: false },
    { what: 'JSON null', type: 'application/json', body: null, expected: false },
    { what: 'a look-alike type', type: 'application/jsonx', body: { msisdn: asked }, expected: false },
  ])('when a 404 is $what, then "not a subscriber" is $expected', ({ type, body, expected }) => {
    expect(isNotASubscriber(type, body, asked)).toBe(expected);
  });
});

describe('customer-records body parsing (CONTRACT §11)', () => {
  it('when the body is an object, then its string fields named as KYC Match attributes are the record, and nothing else', () => {
    expect(parseIdentityBody({ msisdn: '255712000011', givenName: 'José', birthdate: '1987-04-12', gender: 7, email: null, nickname: 'Pepe', address: { street: 'x' } }))
      .toEqual({ givenName: 'José', birthdate: '1987-04-12' });
    expect(parseIdentityBody({})).toEqual({});
    // Inherited properties are not fields.
    expect(parseIdentityBody(Object.create({ name: 'inherited' }) as object)).toEqual({});
  });

  it('when the body is not an object, then it is a fault whose message holds none of it', () => {
    for (const body of [null, 'José', 42, ['José'], undefined]) {
      expect(() => parseIdentityBody(body)).toThrow(/^unexpected customer-records body$/);
    }
  });
});
