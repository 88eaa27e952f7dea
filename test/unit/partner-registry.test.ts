import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilePartnerRegistry, readPartnersFile } from '../../src/partners/file-partner-registry';

function file(content: unknown): string {
  const p = join(mkdtempSync(join(tmpdir(), 'vc-reg-')), 'partners.json');
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
}

const base = { name: 'bank', apiKey: 'bank-key', secret: 'bank-secret', operations: ['kyc'] };

describe('the partner registry file', () => {
  it("when a partner's secret is in the file or in a named environment variable, then it is read from there", () => {
    const partners = readPartnersFile(file({ partners: [base, { ...base, name: 'env', apiKey: 'env-key', secret: undefined, secretEnv: 'ENV_SECRET' }] }), { ENV_SECRET: 'from-env' });
    expect(partners.map((p) => p.secret)).toEqual(['bank-secret', 'from-env']);
    expect(partners[0]).toMatchObject({ enabled: true, signature: 'md5' });
  });

  it.each<[string, unknown, RegExp]>([
    ['a duplicate api key', { partners: [base, { ...base, name: 'other' }] }, /duplicate apiKey/],
    ['an unknown field', { partners: [{ ...base, secrte: 'x' }] }, /partners\.0: has a field the format does not know \(allowed: name, kind, apiKey, secret, /],
    ['an unknown operation', { partners: [{ ...base, operations: ['kyc', 'transfer'] }] }, /operations\.1: must be one of kyc, sim_swap/],
    ['a missing secret variable', { partners: [{ ...base, secret: undefined, secretEnv: 'NOPE_SECRET' }] }, /NOPE_SECRET is not set/],
    ['text that is not JSON', '{"partners": [', /is not valid JSON/],
  ])('refuses %s with a message naming the place', (_name, content, message) => {
    expect(() => readPartnersFile(file(content), {})).toThrow(message);
  });

  it('when a value is refused, then it is never quoted (it could be a secret pasted into the wrong field)', () => {
    const leaked = 'sk_live_do_not_print_me';
    for (const content of [
      { partners: [{ ...base, signature: leaked }] },
      { partners: [{ ...base, operations: [leaked] }] },
      { partners: [{ ...base, [leaked]: 'x' }] }, // a secret pasted where a field name goes
      { partners: [{ ...base, secret: undefined, secretEnv: undefined, 'secret ': leaked }] },
      `{"partners": [{"name": "x", "secret": "${leaked}"`,
    ]) {
      let message = '';
      try { readPartnersFile(file(content), {}); } catch (e) { message = (e as Error).message; }
      expect(message).not.toBe('');
      expect(message).not.toContain(leaked);
    }
  });

  it('when a reload fails, then the registry in force is kept', () => {
    const p = file({ partners: [base] });
    const registry = new FilePartnerRegistry(p, {});
    writeFileSync(p, '{');
    expect(() => registry.reload()).toThrow();
    expect(registry.find('bank-key')?.name).toBe('bank');
  });
});
