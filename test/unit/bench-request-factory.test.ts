import { HOT_NUMBERS, RequestFactory } from '../../bench/request-factory';

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
