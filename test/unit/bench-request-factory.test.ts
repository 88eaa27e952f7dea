import { BATCH_NUMBERS, DEVICE_HOT_NUMBERS, HOT_NUMBERS, KIND_SCOPES, RequestFactory } from '../../bench/request-factory';
import { NUMBER_BLOCK, SCENARIOS, numberBase } from '../../bench/scenarios';
import { syntheticSubscriber } from '../../src/simulator/synthetic';

describe('bench request factory: CAMARA cache hit (C1)', () => {
  it("when a C1 request is built, then the hot numbers go in E.164 to /sim-swap/v2/check with the run's Bearer token", () => {
    const f = new RequestFactory('camara-check-hot', { apiKey: 'k', secret: 's', bearer: 'tok.en.sig' }, 0);
    const first = f.next();
    expect(first.path).toBe('/sim-swap/v2/check');
    expect(first.headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer tok.en.sig' });
    expect(JSON.parse(first.body)).toEqual({ phoneNumber: `+${HOT_NUMBERS[0]}`, maxAge: 240 });
    expect(JSON.parse(f.next().body)).toMatchObject({ phoneNumber: `+${HOT_NUMBERS[1]}` });
  });

  it('when there is no token, then a CAMARA request is refused', () => {
    expect(() => new RequestFactory('camara-check-hot', { apiKey: 'k', secret: 's' }, 0).next()).toThrow(/access token/);
  });

  it("when a legacy kind is built, then it carries no headers of its own (the load generator's defaults apply)", () => {
    expect(new RequestFactory('kyc-hot', { apiKey: 'k', secret: 's' }, 0).next().headers).toBeUndefined();
  });
});

describe('bench request factory: the realistic mix (M1)', () => {
  const creds = { apiKey: 'k', secret: 's', mixBearers: ['tok-a', 'tok-b', 'tok-c', 'tok-d'] };
  const kindOf = (r: { path: string }) => {
    if (r.path.startsWith('/sim-swap/v2/check')) return 'camara';
    if (r.path.startsWith('/eai/verify_customer/query/sim_swap')) return 'sim_swap';
    return 'kyc';
  };

  it('when 200 requests are built, then 70 % are KYC, 20 % CAMARA, 5 % SIM swap and 5 % KYC with a bad signature', () => {
    const f = new RequestFactory('mix-m1', creds, 0);
    const goodSig = new RequestFactory('kyc-distinct', creds, 0).next().path.split('sig=')[1];
    const counts: Record<string, number> = {};
    for (let i = 0; i < 200; i++) {
      const r = f.next();
      const kind = kindOf(r) === 'kyc' && r.path.split('sig=')[1] !== goodSig ? 'bad_sig' : kindOf(r);
      counts[kind] = (counts[kind] ?? 0) + 1;
    }
    expect(counts).toEqual({ kyc: 140, camara: 40, sim_swap: 10, bad_sig: 10 });
  });

  it('when CAMARA requests are built, then the partners\' tokens take turns and no number is sent twice', () => {
    const f = new RequestFactory('mix-m1', creds, 0);
    const tokens: string[] = [];
    const numbers: string[] = [];
    for (let i = 0; i < 400; i++) {
      const r = f.next();
      const body = JSON.parse(r.body) as { msisdn?: string; phoneNumber?: string };
      const n = body.msisdn ?? (body.phoneNumber as string).slice(1);
      // The bad signatures' numbers repeat: they are refused before any lookup.
      if (!HOT_NUMBERS.includes(n)) numbers.push(n);
      if (kindOf(r) === 'camara') tokens.push((r.headers as Record<string, string>).authorization);
    }
    expect(tokens.slice(0, 5)).toEqual(['Bearer tok-a', 'Bearer tok-b', 'Bearer tok-c', 'Bearer tok-d', 'Bearer tok-a']);
    expect(numbers).toHaveLength(380);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('when the partners\' tokens are missing, then building a CAMARA request of the mix fails', () => {
    const f = new RequestFactory('mix-m1', { apiKey: 'k', secret: 's' }, 0);
    expect(() => { for (let i = 0; i < 20; i++) f.next(); }).toThrow(/mixBearers/);
  });
});

describe('bench scenarios: distinct numbers never repeat across scenarios and rounds', () => {
  it('when blocks and rounds are laid out, then no two ranges overlap and every number keeps 8 digits', () => {
    const distinct = SCENARIOS.filter((s) => ['kyc-distinct', 'sim-distinct', 'mix-m1'].includes(s.kind));
    const rounds = 8;
    const starts = distinct.flatMap((s) => Array.from({ length: rounds }, (_, r) => numberBase(s, r, rounds).load));
    const preflights = distinct.map((s) => numberBase(s, 0, rounds).preflight);
    const all = [...starts, ...preflights].sort((a, b) => a - b);
    for (let i = 1; i < all.length; i++) expect(all[i] - all[i - 1]).toBeGreaterThanOrEqual(800_000);
    expect(Math.max(...all) + 1_000_000).toBeLessThanOrEqual(100_000_000);
    expect(NUMBER_BLOCK * distinct.length).toBeLessThanOrEqual(100_000_000);
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
