import { loadConfig } from '../../src/config/config';

describe('OAUTH_REQUIRE_AT_JWT_TYP', () => {
  it('when unset, then external tokens must be typed at+jwt (true)', () => {
    expect(loadConfig({}).OAUTH_REQUIRE_AT_JWT_TYP).toBe(true);
  });

  it('when false, then it reads false', () => {
    expect(loadConfig({ OAUTH_REQUIRE_AT_JWT_TYP: 'false' }).OAUTH_REQUIRE_AT_JWT_TYP).toBe(false);
  });

  it('when not true or false, then start fails naming the variable', () => {
    expect(() => loadConfig({ OAUTH_REQUIRE_AT_JWT_TYP: 'yes' })).toThrow(/OAUTH_REQUIRE_AT_JWT_TYP/);
  });
});
