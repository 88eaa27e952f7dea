import { ConfigError, loadConfig } from '../../src/config/config';
import { readPartnersFile } from '../../src/partners/file-partner-registry';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('audit settings', () => {
  it('when nothing is set, then the embedded store under ./var is used, for 395 days, fail-open', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ AUDIT_DIR: './var', AUDIT_RETENTION_DAYS: 395, AUDIT_FAIL_CLOSED: false, AUDIT_ENABLED: true });
    expect(c.AUDIT_DATABASE_URL).toBeUndefined();
  });

  it.each([
    ['AUDIT_DATABASE_URL', 'mysql://x'],
    ['AUDIT_RETENTION_DAYS', '0'],
    ['AUDIT_FAIL_CLOSED', 'yes'],
    ['AUDIT_BUFFER_MAX', '5'],
  ])('refuse a bad %s, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it('when AUDIT_DATABASE_URL is a postgres:// or postgresql:// URL, then it is accepted', () => {
    expect(loadConfig({ AUDIT_DATABASE_URL: 'postgresql://u:p@db:5432/audit' }).AUDIT_DATABASE_URL).toBe('postgresql://u:p@db:5432/audit');
  });
});

describe('a partner\'s declared purpose in the registry', () => {
  const file = (partner: object) => {
    const p = join(mkdtempSync(join(tmpdir(), 'vc-purpose-')), 'partners.json');
    writeFileSync(p, JSON.stringify({ partners: [{ name: 'bank', apiKey: 'bank-key', secret: 's', operations: ['kyc'], ...partner }] }));
    return p;
  };

  it('when a purpose is given or not, then it is optional and read when given', () => {
    expect(readPartnersFile(file({}))[0].purpose).toBeUndefined();
    expect(readPartnersFile(file({ purpose: 'dpv:FraudPreventionAndDetection' }))[0].purpose).toBe('dpv:FraudPreventionAndDetection');
  });

  it('when a purpose is given, then it must be 1-128 printable characters without spaces', () => {
    expect(() => readPartnersFile(file({ purpose: 'fraud prevention' }))).toThrow(/purpose/);
    expect(() => readPartnersFile(file({ purpose: '' }))).toThrow(/purpose/);
  });
});
