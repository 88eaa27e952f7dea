import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { GqlReply, QueryData, dataOf, firstError, gql } from '../support/graphql-client';
import { DEMO, signedQuery } from '../support/signing';

/*
 * Who sees what on GraphQL (CONTRACT §2). GraphQL shares partner credentials, so a `partner`
 * there sees exactly what its CAMARA calls show it (monitored periods, look-back bound, errors);
 * only a registry entry of kind `internal` gets the operator's view. The demo fixture: 007's
 * SIM was swapped 90 days ago, 012's device changed 400 days ago, 006's SIM 3 hours ago.
 */

const INTERNAL = { apiKey: 'demo-internal-key', secret: 'demo-internal-secret' };
const MONITORED = { SIM_SWAP_MONITORED_DAYS: '30', DEVICE_SWAP_MONITORED_DAYS: '30' };
const TOO_LONG = 'Check monitor period could not exceed local regulations (30 days)';

const SIGNALS = `{ signals(msisdns: ["255712000007", "255712000012", "255712000006"]) {
  simSwap { latestSimChangeAt monitoredPeriod } deviceSwap { latestDeviceChangeAt monitoredPeriod } } }`;
const SIM_SWAP = '{ simSwap(msisdn: "255712000007") { simSwapped latestSimChangeAt monitoredPeriod } }';

describe('GraphQL: a partner sees what CAMARA shows it, an internal app the operator\'s view', () => {
  let c: CamaraHarness;
  beforeAll(async () => { c = await startCamaraHarness({ env: MONITORED }); });
  afterAll(async () => { await c?.close(); });

  const asPartner = (query: string): Promise<GqlReply<QueryData>> => gql(c.h, query, undefined, { qs: signedQuery(DEMO) });
  const asInternal = (query: string): Promise<GqlReply<QueryData>> => gql(c.h, query, undefined, { qs: signedQuery(INTERNAL) });

  it('when a partner asks GraphQL with SIM_SWAP_MONITORED_DAYS=30, then changes older than 30 days are null with monitoredPeriod, as on CAMARA', async () => {
    const token = await c.tokens.twoLegged({});
    const camara = async (path: string, phoneNumber: string) => (await c.call(path, { phoneNumber }, { token })).body;
    expect(await camara('/sim-swap/v2/retrieve-date', '+255712000007')).toEqual({ latestSimChange: null, monitoredPeriod: 30 });
    expect(await camara('/device-swap/v1/retrieve-date', '+255712000012')).toEqual({ latestDeviceChange: null, monitoredPeriod: 30 });

    expect(dataOf(await asPartner(SIM_SWAP)).simSwap).toEqual({ simSwapped: false, latestSimChangeAt: null, monitoredPeriod: 30 });
    const [old, device, recent] = dataOf(await asPartner(SIGNALS)).signals;
    expect(old.simSwap).toEqual({ latestSimChangeAt: null, monitoredPeriod: 30 });
    expect(device.deviceSwap).toEqual({ latestDeviceChangeAt: null, monitoredPeriod: 30 });
    // A change within the period is shown, as CAMARA shows it.
    expect(recent.simSwap).toEqual({ latestSimChangeAt: expect.any(String) as unknown, monitoredPeriod: null });
    expect(await camara('/sim-swap/v2/retrieve-date', '+255712000006')).toEqual({ latestSimChange: expect.any(String) as unknown });
  });

  it('when a partner asks a look-back over the monitored period, then GraphQL gives the error CAMARA gives, in its own shape', async () => {
    const camara = await c.call('/sim-swap/v2/check', { phoneNumber: '+255712000007', maxAge: 2400 }, { token: await c.tokens.twoLegged({}) });
    expect([camara.status, camara.body]).toEqual([400, { status: 400, code: 'OUT_OF_RANGE', message: TOO_LONG }]);
    for (const query of [
      '{ simSwap(msisdn: "255712000007", maxAgeHours: 2400) { simSwapped } }',
      '{ verifyCustomers(msisdns: ["255712000007"], maxAgeHours: 721) { simSwap { simSwapped } } }',
    ]) {
      const r = await asPartner(query);
      expect([r.body.data, firstError(r).extensions]).toEqual([null, { code: '11111', desc: `Error Process: ${TOO_LONG}` }]);
    }
    // The whole period is allowed, and a default look-back longer than it is shortened to it.
    expect(dataOf(await asPartner('{ simSwap(msisdn: "255712000006", maxAgeHours: 720) { simSwapped } }')).simSwap).toEqual({ simSwapped: true });
  });

  it('when an internal app asks, then it gets the operator\'s view: every date and a look-back up to 2400 hours', async () => {
    expect(dataOf(await asInternal(SIM_SWAP)).simSwap).toEqual({ simSwapped: false, latestSimChangeAt: expect.any(String) as unknown, monitoredPeriod: null });
    const [old, device] = dataOf(await asInternal(SIGNALS)).signals;
    expect(Date.now() - Date.parse(old.simSwap!.latestSimChangeAt!)).toBeGreaterThan(89 * 86_400_000);
    expect(Date.now() - Date.parse(device.deviceSwap!.latestDeviceChangeAt!)).toBeGreaterThan(399 * 86_400_000);
    expect(old.simSwap?.monitoredPeriod).toBeNull();
    expect(dataOf(await asInternal('{ simSwap(msisdn: "255712000007", maxAgeHours: 2400) { simSwapped } }')).simSwap).toEqual({ simSwapped: true });
    const batch = await asInternal('{ verifyCustomers(msisdns: ["255712000007"], maxAgeHours: 2400) { simSwap { simSwapped } error { code } } }');
    expect(dataOf(batch).verifyCustomers).toEqual([{ simSwap: { simSwapped: true }, error: null }]);
  });
});
