import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/config';
import { DEVELOPMENT_KEY, createPartnerSecretCipher, loadPartnerSecretsKey } from '../../src/partners/adapters/partner-secret-cipher';

const PROD = {
  NODE_ENV: 'production', HLR_URL: 'http://h/hlr', SIM_URL: 'http://s/sim', CRM_URL: 'http://c/crm',
  OAUTH_SIGNING_KEY_FILE: '/etc/jwks.json', PUBLIC_URL: 'https://verify.example',
};

describe('partner registry settings (CONTRACT §12)', () => {
  test('when nothing is set, then the file registry, and a 1 s version check for a database one', () => {
    const c = loadConfig({});
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.PARTNERS_REFRESH_MS).toBe(1000);
  });

  test('when production has DATABASE_URL, then PARTNERS_FILE is not needed but PARTNER_SECRETS_KEY_FILE is', () => {
    expect(() => loadConfig({ ...PROD, DATABASE_URL: 'postgres://db/vc' })).toThrow(/PARTNER_SECRETS_KEY_FILE: is required in production with DATABASE_URL/);
    expect(loadConfig({ ...PROD, DATABASE_URL: 'postgres://db/vc', PARTNER_SECRETS_KEY_FILE: '/etc/pk' }).DATABASE_URL).toBe('postgres://db/vc');
    expect(() => loadConfig(PROD)).toThrow(/PARTNERS_FILE: is required in production/);
  });

  test.each([['DATABASE_URL', 'mysql://db/vc'], ['PARTNERS_REFRESH_MS', '10'], ['PARTNERS_REFRESH_MS', 'soon']])('when %s is %s, then the start stops naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`\\b${name}\\b`));
  });
});

describe('partner secrets at rest', () => {
  const cipher = createPartnerSecretCipher(randomBytes(32));

  test('when a secret is sealed, then the text holds no trace of it and opens only for its partner and id under its key', () => {
    const sealed = cipher.seal('s3cret-value', 'bank', 'sec_1');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('s3cret');
    expect(cipher.open(sealed, 'bank', 'sec_1')).toBe('s3cret-value');
    expect(() => cipher.open(sealed, 'other-bank', 'sec_1')).toThrow();
    expect(() => cipher.open(sealed, 'bank', 'sec_2')).toThrow();
    expect(() => createPartnerSecretCipher(randomBytes(32)).open(sealed, 'bank', 'sec_1')).toThrow();
    expect(cipher.seal('s3cret-value', 'bank', 'sec_1')).not.toBe(sealed); // a fresh IV each time
  });

  test('when the key file is read, then 64 hex digits or base64 of 32 bytes are taken and anything else is refused naming the setting only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vc-pk-'));
    const key = randomBytes(32);
    const file = (name: string, text: string) => { writeFileSync(join(dir, name), text); return join(dir, name); };
    expect(loadPartnerSecretsKey(file('hex', `${key.toString('hex')}\n`))).toEqual(key);
    expect(loadPartnerSecretsKey(file('b64', key.toString('base64')))).toEqual(key);
    expect(() => loadPartnerSecretsKey(file('short', 'abcd'))).toThrow(/^PARTNER_SECRETS_KEY_FILE: must hold a 32-byte key/);
    expect(() => loadPartnerSecretsKey(join(dir, 'missing'))).toThrow(/PARTNER_SECRETS_KEY_FILE: cannot read .* \(ENOENT\)/);
    expect(loadPartnerSecretsKey(undefined)).toBe(DEVELOPMENT_KEY);
  });
});
