import { BATCH_NUMBERS, DEVICE_HOT_NUMBERS, HOT_NUMBERS, KIND_SCOPES, RequestFactory } from '../../bench/request-factory';
import { syntheticSubscriber } from '../../src/simulator/synthetic';

describe('bench request factory: CAMARA cache hit (C1)', () => {
  it('sends the hot numbers in E.164 to /sim-swap/v2/check with the run\'s Bearer token', () => {
    const f = new RequestFactory('camara-check-hot', { apiKey: 'k', secret: 's', bearer: 'tok.en.sig' }, 0);
    const first = f.next();
    expect(first.path).toBe('/sim-swap/v2/check');
    expect(first.headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer tok.en.sig' });
    expect(JSON.parse(first.body)).toEqual({ phoneNumber: `+${HOT_NUMBERS[0]}`, maxAge: 240 });
    expect(JSON.parse(f.next().body)).toMatchObject({ phoneNumber: `+${HOT_NUMBERS[1]}` });
  });

  it('refuses to build a CAMARA request without a token', () => {
    expect(() => new RequestFactory('camara-check-hot', { apiKey: 'k', secret: 's' }, 0).next()).toThrow(/access token/);
  });

  it('legacy kinds carry no headers of their own (the load generator\'s defaults apply)', () => {
    expect(new RequestFactory('kyc-hot', { apiKey: 'k', secret: 's' }, 0).next().headers).toBeUndefined();
  });
});

describe('bench request factory: Device Swap (D1) and GraphQL signals (G1)', () => {
  it('when D1 builds a request, then it is a Device Swap check of a number used in a device, with the run\'s token', () => {
    const f = new RequestFactory('device-check-hot', { apiKey: 'k', secret: 's', bearer: 'tok.en.sig' }, 0);
    const first = f.next();
    expect([first.path, first.headers?.authorization]).toEqual(['/device-swap/v1/check', 'Bearer tok.en.sig']);
    expect(JSON.parse(first.body)).toEqual({ phoneNumber: `+${DEVICE_HOT_NUMBERS[0]}`, maxAge: 240 });
    for (const n of DEVICE_HOT_NUMBERS) expect(syntheticSubscriber(n, new Date(0))?.deviceFirstSeenAt).toEqual(expect.any(String));
    expect(KIND_SCOPES['device-check-hot']).toBe('device-swap:check');
  });

  it('when G1 builds a request, then it asks every signal of the 50 batch numbers, signed', () => {
    const r = new RequestFactory('graphql-signals', { apiKey: 'k', secret: 's' }, 0).next();
    expect(r.path).toMatch(/^\/graphql\?api_key=k&timestamp=\d+&sig=[0-9a-f]{32}$/);
    const body = JSON.parse(r.body) as { query: string; variables: { m: string[] } };
    expect(body.variables.m).toEqual(BATCH_NUMBERS);
    for (const field of ['simSwap', 'deviceSwap', 'callForwarding', 'tenure', 'kyc', 'errors']) expect(body.query).toContain(field);
  });
});
