import { bearerToken, bearerTokenCheck } from '../../src/http/bearer';

describe('Authorization: Bearer (RFC 6750 §2.1, RFC 9110 §11.1)', () => {
  it.each([
    ['Bearer abc.def-ghi', 'abc.def-ghi'],
    ['bearer abc.def-ghi', 'abc.def-ghi'],
    ['BEARER abc', 'abc'],
    ['bEaReR abc', 'abc'],
    ['Bearer   abc', 'abc'],
    ['Bearer eyJhbGciOiJSUzI1NiJ9.e30.c2ln==', 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln=='],
  ])('reads the token of %j whatever the case of the scheme', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it.each([undefined, '', 'Bearer', 'Bearer ', 'Bearerabc', 'Basic YWJjOmRlZg==', 'Token abc', ' abc', 'Bearer\tabc'])('when the header is %j, then no token is found', (header) => {
    expect(bearerToken(header)).toBeUndefined();
  });

  it('when a token is presented, then only the expected one matches, with the scheme in any case', () => {
    const matches = bearerTokenCheck('events-token-0123456789');
    expect(matches('Bearer events-token-0123456789')).toBe(true);
    expect(matches('bearer events-token-0123456789')).toBe(true);
    expect(matches('BEARER events-token-0123456789')).toBe(true);
    for (const wrong of [undefined, '', 'Bearer', 'events-token-0123456789', 'Bearer events-token-012345678', 'Bearer events-token-0123456789x', 'Bearer EVENTS-TOKEN-0123456789', 'Basic events-token-0123456789']) {
      expect(matches(wrong)).toBe(false);
    }
  });
});
