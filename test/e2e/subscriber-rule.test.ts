import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { dataOf, gql } from '../support/graphql-client';

/*
 * "Is a subscriber" is one rule (src/verification/subscriber-facts.ts): a line the HLR knows as
 * terminated is no one's subscriber, on every CAMARA API and in GraphQL signals alike. The
 * demo fixture's 004 is terminated, with a SIM record SIM management still keeps.
 */

const TERMINATED = '+255712000004';

describe('one subscriber rule for every interface', () => {
  let c: CamaraHarness;
  beforeAll(async () => { c = await startCamaraHarness(); });
  afterAll(async () => { await c?.close(); });

  it('when the terminated 004 is asked of every CAMARA API, then each answers 404 IDENTIFIER_NOT_FOUND', async () => {
    const token = await c.tokens.twoLegged({});
    const calls: [string, object][] = [
      ['/sim-swap/v2/check', {}],
      ['/sim-swap/v2/retrieve-date', {}],
      ['/kyc-tenure/v0.2/check-tenure', { tenureDate: '2020-01-01' }],
      ['/device-swap/v1/check', {}],
      ['/device-swap/v1/retrieve-date', {}],
      ['/call-forwarding-signal/v0.4/unconditional-call-forwardings', {}],
      ['/call-forwarding-signal/v0.4/call-forwardings', {}],
      ['/number-recycling/v0.2/check', { specifiedDate: '2024-01-01' }],
      ['/kyc-match/v0.4/match', { givenName: 'Someone' }],
    ];
    const answers = await Promise.all(calls.map(async ([path, body]) => {
      const r = await c.call(path, { phoneNumber: TERMINATED, ...body }, { token });
      return [path, r.status, (r.body as { code?: string }).code];
    }));
    expect(answers).toEqual(calls.map(([path]) => [path, 404, 'IDENTIFIER_NOT_FOUND']));
  });

  it('when the terminated 004 is asked GraphQL signals, then it is not a subscriber there either: no SIM change date, KYC not valid', async () => {
    const r = await gql(c.h, `{ signals(msisdns: ["${TERMINATED.slice(1)}"]) {
      simSwap { latestSimChangeAt } deviceSwap { latestDeviceChangeAt } callForwarding { unconditional } tenure { since } kyc { isValid isActive isPrepaid }
      errors { signal code desc } } }`);
    const [item] = dataOf(r).signals;
    expect(item).toMatchObject({
      simSwap: null, deviceSwap: null, callForwarding: null, tenure: null, kyc: { isValid: false, isActive: false, isPrepaid: false },
    });
    expect(item.errors.map((e) => [e.signal, e.code, e.desc]).sort()).toEqual([
      ['CALL_FORWARDING', '11111', 'Error Process: the phone number is not associated with a subscriber'],
      ['DEVICE_SWAP', '11111', 'Error Process: msisdn is not a subscriber'],
      ['SIM_SWAP', '11111', 'Error Process: msisdn is not a subscriber'],
      ['TENURE', '11111', 'Error Process: msisdn is not a subscriber'],
    ]);
  });
});
