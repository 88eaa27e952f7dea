import { ConfigError, configSchema, loadConfig, txnClaimNeedsMs, webhookPartnerConcurrency } from '../../src/config/config';

/** Every setting whose default is a number: the integer settings. */
function integerSettings(): string[] {
  const defaults = configSchema.innerType().parse({}) as Record<string, unknown>;
  return Object.keys(defaults).filter((k) => typeof defaults[k] === 'number');
}

describe('configuration (CONTRACT §4)', () => {
  it('when nothing is set, then the contract defaults apply', () => {
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

  it.each(notPlainDecimal)('when PORT is %j, then the start stops naming PORT: integers are plain decimal digits', (value) => {
    expect(() => loadConfig({ PORT: value })).toThrow(/\bPORT: must be a whole number in plain decimal digits/);
  });

  it.each(integerSettings())('when %s is not plain decimal digits, then the start stops too', (name) => {
    expect(() => loadConfig({ [name]: '0x10' })).toThrow(new RegExp(`\\b${name}: must be a whole number in plain decimal digits`));
    expect(() => loadConfig({ [name]: '1e2' })).toThrow(new RegExp(`\\b${name}\\b`));
  });

  it('when an integer is plain decimal digits, leading zeros included, then it is read as the number they spell', () => {
    expect(loadConfig({ PORT: '8403', SIG_MAX_SKEW_S: '0300', AUTH_FAIL_WINDOW_S: '90' })).toMatchObject({ PORT: 8403, SIG_MAX_SKEW_S: 300, AUTH_FAIL_WINDOW_S: 90 });
  });

  it('when digits are out of range, then the message still names the variable', () => {
    expect(() => loadConfig({ PORT: '99999999999999999999999' })).toThrow(/\bPORT: Number must be less than or equal to 65535/);
  });

  it('when only one of HLR_URL and SIM_URL is set, then the start stops', () => {
    expect(() => loadConfig({ HLR_URL: 'http://h/hlr' })).toThrow(/SIM_URL/);
  });

  it('when REDIS_WAIT_REPLICAS is set, then it needs Redis and a WAIT timeout that fits in the command timeout', () => {
    const redis = { REDIS_URL: 'redis://127.0.0.1:6379' };
    expect(loadConfig(redis)).toMatchObject({ REDIS_WAIT_REPLICAS: 0, REDIS_WAIT_TIMEOUT_MS: 100 });
    expect(() => loadConfig({ REDIS_WAIT_REPLICAS: '1' })).toThrow(/REDIS_WAIT_REPLICAS: needs Redis/);
    // With the default 500 ms command timeout: 2 × (150 + 100) fits, 2 × (151 + 100) does not.
    expect(() => loadConfig({ ...redis, REDIS_WAIT_REPLICAS: '1', REDIS_WAIT_TIMEOUT_MS: '151' }))
      .toThrow(/REDIS_WAIT_TIMEOUT_MS: must leave room for two WAITs/);
    expect(loadConfig({ ...redis, REDIS_WAIT_REPLICAS: '1', REDIS_WAIT_TIMEOUT_MS: '150' })).toMatchObject({ REDIS_WAIT_REPLICAS: 1, REDIS_WAIT_TIMEOUT_MS: 150 });
  });

  it('when demo defaults are used in production, then they are refused', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PARTNERS_FILE: is required in production/);
  });

  describe('access tokens (CONTRACT §7)', () => {
    const prod = { NODE_ENV: 'production', PARTNERS_FILE: '/etc/p.json', HLR_URL: 'http://h/hlr', SIM_URL: 'http://s/sim', CRM_URL: 'http://c/crm' };

    it('when nothing is set, then the built-in issuer is on, tokens last one hour, and there is no external issuer', () => {
      expect(loadConfig({})).toMatchObject({ OAUTH_BUILTIN: true, OAUTH_TOKEN_TTL_S: 3600, OAUTH_JWKS_TIMEOUT_MS: 2000, OAUTH_CLOCK_TOLERANCE_S: 30 });
      expect(loadConfig({}).OAUTH_ISSUER).toBeUndefined();
    });

    it('when the built-in issuer runs in production, then it needs a signing key file and PUBLIC_URL', () => {
      expect(() => loadConfig(prod)).toThrow(/OAUTH_SIGNING_KEY_FILE: is required in production/);
      expect(() => loadConfig(prod)).toThrow(/PUBLIC_URL: is required in production/);
      expect(() => loadConfig({ ...prod, OAUTH_SIGNING_KEY_FILE: '/k.json', PUBLIC_URL: 'https://api.example' })).not.toThrow();
    });

    it('when only one of OAUTH_ISSUER and OAUTH_JWKS_URL is set, then the start stops', () => {
      expect(() => loadConfig({ OAUTH_ISSUER: 'https://idp.example' })).toThrow(/OAUTH_JWKS_URL/);
      expect(() => loadConfig({ OAUTH_JWKS_URL: 'https://idp.example/jwks' })).toThrow(/OAUTH_ISSUER/);
    });

    it('when the built-in issuer is turned off, then an external one is required', () => {
      expect(() => loadConfig({ OAUTH_BUILTIN: 'false' })).toThrow(/OAUTH_BUILTIN/);
      const external = { OAUTH_ISSUER: 'https://idp.example', OAUTH_JWKS_URL: 'https://idp.example/jwks' };
      expect(loadConfig({ ...external, OAUTH_BUILTIN: 'false' }).OAUTH_BUILTIN).toBe(false);
      expect(() => loadConfig({ ...prod, ...external, OAUTH_BUILTIN: 'false' })).not.toThrow();
    });

    it('when the JWKS URL is not https in production, then it is refused', () => {
      const env = { ...prod, OAUTH_BUILTIN: 'false', OAUTH_ISSUER: 'https://idp.example', OAUTH_JWKS_URL: 'http://idp.example/jwks' };
      expect(() => loadConfig(env)).toThrow(/OAUTH_JWKS_URL: must be https in production/);
    });

    it.each([['OAUTH_TOKEN_TTL_S', '10'], ['OAUTH_JWKS_TIMEOUT_MS', '0'], ['PUBLIC_URL', 'api.example'], ['OAUTH_BUILTIN', 'yes']])(
      'when %s is bad (%s), then the start stops', (name, value) => {
        expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`\\b${name}\\b`));
      },
    );
  });

  describe('integer settings without a default', () => {
    it.each([
      ['SIM_SWAP_MONITORED_DAYS', '0x10'], ['SIM_SWAP_MONITORED_DAYS', '1e1'], ['SIM_SWAP_MONITORED_DAYS', ' 7 '],
      ['SIM_SWAP_MONITORED_DAYS', '7.0'], ['SHUTDOWN_READINESS_DELAY_MS', '0x10'], ['SHUTDOWN_READINESS_DELAY_MS', ' 5000'],
    ])('when %s is %j, then the start stops naming it: plain decimal digits only', (name, value) => {
      expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`\\b${name}: must be a whole number in plain decimal digits`));
    });

    it('when they are plain digits in range, then they are read as written', () => {
      expect(loadConfig({ SIM_SWAP_MONITORED_DAYS: '016', SHUTDOWN_READINESS_DELAY_MS: '0' }))
        .toMatchObject({ SIM_SWAP_MONITORED_DAYS: 16, SHUTDOWN_READINESS_DELAY_MS: 0 });
      expect(() => loadConfig({ SHUTDOWN_READINESS_DELAY_MS: '600001' })).toThrow(/\bSHUTDOWN_READINESS_DELAY_MS\b/);
    });
  });

  describe('cross-field rules', () => {
    it.each<[string, Record<string, string>, RegExp]>([
      ['the webhook backoff base exceeds its max', { WEBHOOK_BACKOFF_BASE_MS: '5000', WEBHOOK_BACKOFF_MAX_MS: '4999' },
        /\bWEBHOOK_BACKOFF_BASE_MS: must be at most WEBHOOK_BACKOFF_MAX_MS/],
      ['the base exceeds the default max', { WEBHOOK_BACKOFF_BASE_MS: '3600001' }, /\bWEBHOOK_BACKOFF_BASE_MS: must be at most/],
      // 10 s HLR deadline + 2 × 500 ms + 1 s slack = 12 s.
      ['a txn_id claim would lapse during the HLR call', { TXN_IN_FLIGHT_TTL_S: '5', HLR_TIMEOUT_MS: '10000' },
        /\bTXN_IN_FLIGHT_TTL_S: must outlast a request's upstream call and state writes: at least 12 s/],
      ['a txn_id claim would lapse during the SIM call', { TXN_IN_FLIGHT_TTL_S: '11', SIM_TIMEOUT_MS: '10000' }, /\bTXN_IN_FLIGHT_TTL_S\b/],
      ['a txn_id claim would lapse during slow Redis writes', { TXN_IN_FLIGHT_TTL_S: '10', REDIS_COMMAND_TIMEOUT_MS: '4000' }, /\bTXN_IN_FLIGHT_TTL_S\b/],
      ['a cluster node has port 99999', { REDIS_CLUSTER_NODES: 'a:7000,b:99999' }, /\bREDIS_CLUSTER_NODES: each port must be 1-65535/],
      ['a cluster node has port 0', { REDIS_CLUSTER_NODES: 'a:0' }, /\bREDIS_CLUSTER_NODES: each port must be 1-65535/],
      ['a cluster node has a 6-digit port', { REDIS_CLUSTER_NODES: 'a:000080' }, /\bREDIS_CLUSTER_NODES\b/],
      ['a cluster node has no host', { REDIS_CLUSTER_NODES: ':7000' }, /\bREDIS_CLUSTER_NODES\b/],
    ])('when %s, then the start stops naming the variable', (_case, env, message) => {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(message);
    });

    it('when the values are consistent, then they are accepted, bounds included', () => {
      expect(loadConfig({ WEBHOOK_BACKOFF_BASE_MS: '4999', WEBHOOK_BACKOFF_MAX_MS: '4999' }).WEBHOOK_BACKOFF_BASE_MS).toBe(4999);
      expect(loadConfig({ TXN_IN_FLIGHT_TTL_S: '12', HLR_TIMEOUT_MS: '10000' }).TXN_IN_FLIGHT_TTL_S).toBe(12);
      expect(loadConfig({ REDIS_CLUSTER_NODES: 'redis-0.redis:1,10.0.0.2:65535' }).REDIS_CLUSTER_NODES).toBe('redis-0.redis:1,10.0.0.2:65535');
    });

    it('when nothing is set, then the defaults satisfy every rule (60 s claim against a 4 s need)', () => {
      const c = loadConfig({});
      expect(c.TXN_IN_FLIGHT_TTL_S * 1000).toBeGreaterThanOrEqual(txnClaimNeedsMs(c));
      expect(txnClaimNeedsMs(c)).toBe(4000);
    });
  });

  it('when nothing is set for KYC Match, then scores are off, idDocument is optional, 10 a day per number, no CRM_URL; production needs CRM_URL', () => {
    expect(loadConfig({})).toMatchObject({ KYC_MATCH_SCORES: false, KYC_MATCH_ID_DOCUMENT_REQUIRED: false, KYC_MATCH_MAX_PER_NUMBER_PER_DAY: 10, CRM_TIMEOUT_MS: 2000 });
    expect(loadConfig({}).CRM_URL).toBeUndefined();
    expect(loadConfig({ CRM_URL: 'http://c:9090/crm/' }).CRM_URL).toBe('http://c:9090/crm');
    expect(() => loadConfig({ CRM_URL: 'ftp://c/crm' })).toThrow(/CRM_URL/);
    expect(() => loadConfig({ KYC_MATCH_MAX_PER_NUMBER_PER_DAY: '0' })).toThrow(/KYC_MATCH_MAX_PER_NUMBER_PER_DAY/);
    expect(() => loadConfig({ KYC_MATCH_SCORES: 'yes' })).toThrow(/KYC_MATCH_SCORES/);
    expect(() => loadConfig({ NODE_ENV: 'production', PARTNERS_FILE: '/etc/p.json', HLR_URL: 'http://h/hlr', SIM_URL: 'http://s/sim' }))
      .toThrow(/CRM_URL: is required in production/);
  });

  it('when production runs on Redis without KYC_MATCH_KEY_FILE, then the start stops naming it; with it, or without Redis, it starts', () => {
    const prod = {
      NODE_ENV: 'production', PARTNERS_FILE: '/etc/p.json', HLR_URL: 'http://h/hlr', SIM_URL: 'http://s/sim', CRM_URL: 'http://c/crm',
      OAUTH_SIGNING_KEY_FILE: '/etc/jwks.json', PUBLIC_URL: 'https://verify.example', SINK_CREDENTIALS_KEY_FILE: '/etc/k',
    };
    expect(() => loadConfig({ ...prod, REDIS_URL: 'redis://r:6379' })).toThrow(/KYC_MATCH_KEY_FILE: is required in production with Redis/);
    expect(() => loadConfig({ ...prod, REDIS_CLUSTER_NODES: 'r1:6379' })).toThrow(/KYC_MATCH_KEY_FILE/);
    expect(loadConfig({ ...prod, REDIS_URL: 'redis://r:6379', KYC_MATCH_KEY_FILE: '/etc/km' }).KYC_MATCH_KEY_FILE).toBe('/etc/km');
    expect(loadConfig(prod).KYC_MATCH_KEY_FILE).toBeUndefined();
  });

  it('when a variable is empty, then it is treated as unset', () => {
    expect(loadConfig({ PORT: '' }).PORT).toBe(8080);
  });

  it('when WEBHOOK_PARTNER_CONCURRENCY exceeds WEBHOOK_CONCURRENCY, then the start stops naming it; unset, it is 16 or WEBHOOK_CONCURRENCY when lower', () => {
    expect(() => loadConfig({ WEBHOOK_CONCURRENCY: '8', WEBHOOK_PARTNER_CONCURRENCY: '9' })).toThrow(/WEBHOOK_PARTNER_CONCURRENCY: must be at most WEBHOOK_CONCURRENCY/);
    expect(() => loadConfig({ WEBHOOK_PARTNER_CONCURRENCY: '0' })).toThrow(/\bWEBHOOK_PARTNER_CONCURRENCY\b/);
    expect(webhookPartnerConcurrency(loadConfig({}))).toBe(16);
    expect(webhookPartnerConcurrency(loadConfig({ WEBHOOK_CONCURRENCY: '4' }))).toBe(4);
    expect(webhookPartnerConcurrency(loadConfig({ WEBHOOK_PARTNER_CONCURRENCY: '8' }))).toBe(8);
    expect(loadConfig({}).SUBSCRIPTIONS_MAX_PER_PARTNER).toBe(1000);
    expect(() => loadConfig({ SUBSCRIPTIONS_MAX_PER_PARTNER: '0' })).toThrow(/\bSUBSCRIPTIONS_MAX_PER_PARTNER\b/);
  });
});
