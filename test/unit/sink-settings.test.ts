import { ConfigError, loadConfig } from '../../src/config/config';

const PROD = {
  NODE_ENV: 'production', PARTNERS_FILE: '/etc/p.json', HLR_URL: 'http://h/hlr', SIM_URL: 'http://s/sim', CRM_URL: 'http://c/crm',
  OAUTH_SIGNING_KEY_FILE: '/etc/jwks.json', PUBLIC_URL: 'https://verify.example',
};

describe('sink settings', () => {
  test('when nothing is set, then the system resolver with a 2 s deadline, a week and 10,000 dead letters', () => {
    expect(loadConfig({})).toMatchObject({ SINK_DNS_TIMEOUT_MS: 2000, WEBHOOK_DEAD_LETTER_RETENTION_S: 604_800, WEBHOOK_DEAD_LETTER_MAX: 10_000 });
    expect(loadConfig({}).SINK_DNS_SERVERS).toBeUndefined();
  });

  test.each(['127.0.0.1', '127.0.0.1:5353', '10.0.0.2,10.0.0.3:53', '[::1]:53', '::1', '[2001:db8::1]'])('when SINK_DNS_SERVERS is %s, then it is taken', (v) => {
    expect(loadConfig({ SINK_DNS_SERVERS: v }).SINK_DNS_SERVERS).toBe(v);
  });

  test.each([
    ['SINK_DNS_SERVERS', 'dns.example'], ['SINK_DNS_SERVERS', '127.0.0.1:0'], ['SINK_DNS_SERVERS', '127.0.0.1,'], ['SINK_DNS_SERVERS', '1.2.3.4:70000'],
    ['SINK_DNS_TIMEOUT_MS', '50'], ['WEBHOOK_DEAD_LETTER_RETENTION_S', '0'], ['WEBHOOK_DEAD_LETTER_MAX', '0'],
  ])('when %s is %s, then the start stops naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`\\b${name}\\b`));
  });

  test('when production runs on Redis without SINK_CREDENTIALS_KEY_FILE, then the start stops naming it; with it, or without Redis, it starts', () => {
    expect(() => loadConfig({ ...PROD, REDIS_URL: 'redis://r:6379' })).toThrow(/SINK_CREDENTIALS_KEY_FILE: is required in production with Redis/);
    expect(() => loadConfig({ ...PROD, REDIS_CLUSTER_NODES: 'r1:6379' })).toThrow(/SINK_CREDENTIALS_KEY_FILE/);
    expect(loadConfig({ ...PROD, REDIS_URL: 'redis://r:6379', SINK_CREDENTIALS_KEY_FILE: '/etc/k', KYC_MATCH_KEY_FILE: '/etc/km' }).SINK_CREDENTIALS_KEY_FILE).toBe('/etc/k');
    expect(() => loadConfig(PROD)).not.toThrow();
  });
});
