import { ConfigError, configSchema, loadConfig } from '../../src/config/config';

/** Every setting whose default is a number: the integer settings. */
function integerSettings(): string[] {
  const defaults = configSchema.innerType().parse({}) as Record<string, unknown>;
  return Object.keys(defaults).filter((k) => typeof defaults[k] === 'number');
}

describe('configuration (CONTRACT §4)', () => {
  it('has the contract defaults when nothing is set', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      PORT: 8080, COUNTRY_CODE: '255', NSN_LENGTH: 9, TIMEZONE: 'UTC', SIG_MAX_SKEW_S: 300, TXN_TTL_S: 86400,
      SIM_SWAP_MAX_AGE_HOURS: 240, KYC_CACHE_TTL_S: 300, KYC_STALE_S: 3600, SIM_SWAP_CACHE_TTL_S: 30,
      NEGATIVE_CACHE_TTL_S: 60, BODY_LIMIT_BYTES: 8192, GRAPHQL_INTROSPECTION: false,
    });
  });

  it.each([
    ['PORT', 'eighty'], ['PORT', '70000'], ['TIMEZONE', 'Mars/Olympus'], ['COUNTRY_CODE', '0255'], ['NSN_LENGTH', '3'],
    ['SIG_MAX_SKEW_S', '-1'], ['HLR_URL', 'ftp://x'], ['LOG_LEVEL', 'loud'], ['GRAPHQL_INTROSPECTION', 'yes'],
    ['REDIS_URL', 'localhost:6379'], ['REDIS_CLUSTER_NODES', 'a:1,b'], ['EVENTS_TOKEN', 'short'], ['SIM_SWAP_MAX_AGE_HOURS', '2401'],
  ])('stops on a bad %s (%s) with a message naming it', (name, value) => {
    const env: Record<string, string> = { [name]: value };
    if (name === 'HLR_URL') env.SIM_URL = 'http://127.0.0.1:1/sim';
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`\\b${name}\\b`));
  });

  // Number() reads all of these as integers: 0x20D3 is 8403, 8.4e3 is 8400.
  const notPlainDecimal = ['0x20D3', '8.4e3', '8400.0', '0b1', '0o17', ' 8080', '8080 ', '+8080', '-0', '1_000', 'Infinity', '８０８０'];

  it.each(notPlainDecimal)('stops on PORT=%j: integers are plain decimal digits, and the message names PORT', (value) => {
    expect(() => loadConfig({ PORT: value })).toThrow(/\bPORT: must be a whole number in plain decimal digits/);
  });

  it.each(integerSettings())('holds %s to plain decimal digits too', (name) => {
    expect(() => loadConfig({ [name]: '0x10' })).toThrow(new RegExp(`\\b${name}: must be a whole number in plain decimal digits`));
    expect(() => loadConfig({ [name]: '1e2' })).toThrow(new RegExp(`\\b${name}\\b`));
  });

  it('reads plain decimal digits as the number they spell, leading zeros included', () => {
    expect(loadConfig({ PORT: '8403', SIG_MAX_SKEW_S: '0300', AUTH_FAIL_WINDOW_S: '90' })).toMatchObject({ PORT: 8403, SIG_MAX_SKEW_S: 300, AUTH_FAIL_WINDOW_S: 90 });
  });

  it('still names the variable when digits are out of range', () => {
    expect(() => loadConfig({ PORT: '99999999999999999999999' })).toThrow(/\bPORT: Number must be less than or equal to 65535/);
  });

  it('needs HLR_URL and SIM_URL together', () => {
    expect(() => loadConfig({ HLR_URL: 'http://h/hlr' })).toThrow(/SIM_URL/);
  });

  it('refuses demo defaults in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PARTNERS_FILE: is required in production/);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '' }).PORT).toBe(8080);
  });
});
