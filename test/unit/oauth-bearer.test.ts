import { UnauthenticatedError } from '../../src/errors/domain-errors';
import { bearerToken, requireBearerToken } from '../../src/http/bearer';

describe('Authorization: Bearer (RFC 6750 §2.1, RFC 9110 §11.1)', () => {
  it.each(['Bearer abc.def-_~+/=', 'bearer abc.def-_~+/=', 'BEARER abc.def-_~+/=', 'Bearer   abc.def-_~+/=  '])('when the header is %j, then the token is read', (h) => {
    expect(bearerToken(h)).toBe('abc.def-_~+/=');
  });

  it.each([undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'Bearerabc', 'Bearer a b', 'Bearer a"b', 'Bearer =abc'])('when the header is %j, then no token is found', (h) => {
    expect(bearerToken(h)).toBeUndefined();
  });

  it('when requireBearerToken finds no valid token, then it throws UnauthenticatedError (401) saying what is wrong', () => {
    expect(() => requireBearerToken(undefined)).toThrow(UnauthenticatedError);
    expect(() => requireBearerToken(undefined)).toThrow('access token missing');
    expect(() => requireBearerToken('Basic abc')).toThrow('Authorization is not a Bearer token');
    expect(requireBearerToken('bearer t0k')).toBe('t0k');
  });
});
