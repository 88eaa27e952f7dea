import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { expectErrorInfo } from '../support/camara-scenarios';

/*
 * `{}` with a two-legged token on every CAMARA operation, each as its own official feature
 * and yaml say (docs/camara.md, "an empty body"): where every field is optional the number is
 * what is missing (422 MISSING_IDENTIFIER, the scenarios' C02.04); where a field is required,
 * the body is invalid (400 INVALID_ARGUMENT, the scenarios' "empty object as request body").
 */

const SCOPES = [
  'sim-swap', 'kyc-tenure:check-tenure', 'kyc-match:match', 'device-swap:check', 'device-swap:retrieve-date',
  'call-forwarding-signal:unconditional-call-forwardings:read', 'call-forwarding-signal:call-forwardings:read', 'number-recycling:check',
].join(' ');

let c: CamaraHarness;
let token: string;
beforeAll(async () => {
  c = await startCamaraHarness();
  token = await c.tokens.twoLegged({ scope: SCOPES });
});
afterAll(() => c?.close());

describe('an empty object as the body, with a two-legged token', () => {
  it.each([
    ['/call-forwarding-signal/v0.4/unconditional-call-forwardings', 422, 'MISSING_IDENTIFIER'],
    ['/call-forwarding-signal/v0.4/call-forwardings', 422, 'MISSING_IDENTIFIER'],
    ['/sim-swap/v2/check', 422, 'MISSING_IDENTIFIER'],
    ['/sim-swap/v2/retrieve-date', 422, 'MISSING_IDENTIFIER'],
    ['/device-swap/v1/check', 422, 'MISSING_IDENTIFIER'],
    ['/device-swap/v1/retrieve-date', 422, 'MISSING_IDENTIFIER'],
    ['/kyc-tenure/v0.2/check-tenure', 400, 'INVALID_ARGUMENT'],
    ['/number-recycling/v0.2/check', 400, 'INVALID_ARGUMENT'],
    ['/kyc-match/v0.4/match', 400, 'INVALID_ARGUMENT'],
  ] as const)('when POST %s with {}, then %i %s', async (path, status, code) => {
    expectErrorInfo(await c.call(path, {}, { token }), status, code);
  });
});
