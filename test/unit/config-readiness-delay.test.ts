import { ConfigError, loadConfig, readinessDelayMs } from '../../src/config/config';

describe('SHUTDOWN_READINESS_DELAY_MS (how long /readyz says 503 before the drain starts)', () => {
  const production = { NODE_ENV: 'production', PARTNERS_FILE: '/etc/vc/partners.json', HLR_URL: 'http://h/hlr', SIM_URL: 'http://s/sim', CRM_URL: 'http://c/crm', OAUTH_SIGNING_KEY_FILE: '/etc/vc/jwks.json', PUBLIC_URL: 'https://verify.example.com' };

  it('when it is not set, then it is 5 s in production and 0 elsewhere (npm start, tests)', () => {
    expect(readinessDelayMs(loadConfig(production))).toBe(5000);
    expect(readinessDelayMs(loadConfig({}))).toBe(0);
    expect(readinessDelayMs(loadConfig({ NODE_ENV: 'test' }))).toBe(0);
  });

  it('when it is set, 0 included, then the value is taken in any environment', () => {
    expect(readinessDelayMs(loadConfig({ ...production, SHUTDOWN_READINESS_DELAY_MS: '0' }))).toBe(0);
    expect(readinessDelayMs(loadConfig({ ...production, SHUTDOWN_READINESS_DELAY_MS: '15000' }))).toBe(15000);
    expect(readinessDelayMs(loadConfig({ SHUTDOWN_READINESS_DELAY_MS: '2500' }))).toBe(2500);
  });

  it.each(['-1', '5s', '1e3', '0x10', '2.5', ' 5000', '600001'])('when it is %j, then the start stops with a message naming it', (value) => {
    expect(() => loadConfig({ SHUTDOWN_READINESS_DELAY_MS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ SHUTDOWN_READINESS_DELAY_MS: value })).toThrow(/\bSHUTDOWN_READINESS_DELAY_MS\b/);
  });
});
