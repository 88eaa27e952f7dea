import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminTokens } from '../../src/admin/auth/admin-tokens';
import { claimAt, rolesFrom } from '../../src/admin/auth/principal';
import { SessionStore, csrfMatches } from '../../src/admin/auth/sessions';
import { loadConfig } from '../../src/config/config';

describe('admin roles', () => {
  it('when a claim names partner-admin or compliance, then viewer comes with it; unknown names are ignored', () => {
    expect(rolesFrom(['partner-admin'])).toEqual(['viewer', 'partner-admin']);
    expect(rolesFrom('compliance intern')).toEqual(['viewer', 'compliance']);
    expect(rolesFrom(['intern', 'admin'])).toEqual([]);
    expect(rolesFrom(undefined)).toEqual([]);
    expect(rolesFrom({ viewer: true })).toEqual([]);
  });

  it('when the roles claim is a dotted path, then the nested value is read; a missing step is undefined', () => {
    const claims = { realm_access: { roles: ['viewer'] }, roles: 'x' };
    expect(claimAt(claims, 'realm_access.roles')).toEqual(['viewer']);
    expect(claimAt(claims, 'realm_access.none.roles')).toBeUndefined();
    expect(claimAt(claims, 'roles.length')).toBeUndefined();
  });
});

describe('ADMIN_TOKENS_FILE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vc-tokens-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (content: string) => {
    const p = join(dir, `t${Math.random()}.json`);
    writeFileSync(p, content);
    return p;
  };
  const digest = (t: string) => createHash('sha256').update(t).digest('hex');

  it('when a token matches an entry\'s digest, then the caller is that name with its roles; any other token is nobody', () => {
    const tokens = AdminTokens.fromFile(file(JSON.stringify({ tokens: [{ name: 'ops-bot', sha256: digest('s3cret-token'), roles: ['partner-admin'] }] })));
    expect(tokens.match('s3cret-token')).toEqual({ subject: 'ops-bot', method: 'token-bearer', roles: ['viewer', 'partner-admin'] });
    expect(tokens.match('s3cret-token ')).toBeUndefined();
    expect(tokens.match('')).toBeUndefined();
  });

  it('when the file is bad, then the error names the file and field, never a value from it', () => {
    const secretish = 'a'.repeat(64);
    expect(() => AdminTokens.fromFile(file(`{"tokens":[{"name":"x","sha256":"${secretish}","roles":["root"]}]}`))).toThrow(/tokens\.0\.roles\.0: must be one of viewer, partner-admin, compliance/);
    expect(() => AdminTokens.fromFile(file(`{"tokens":[{"name":"x","sha256":"${secretish}","token":"${secretish}","roles":["viewer"]}]}`))).toThrow(/has a field the format does not know/);
    expect(() => AdminTokens.fromFile(file(`{"tokens":[{"name":"x","sha256":"${secretish}`))).toThrow(/is not valid JSON$/);
    expect(() => AdminTokens.fromFile(join(dir, 'missing.json'))).toThrow(/cannot be read \(ENOENT\)/);
    const twice = { name: 'x', sha256: secretish, roles: ['viewer'] };
    expect(() => AdminTokens.fromFile(file(JSON.stringify({ tokens: [twice, twice] })))).toThrow(/the name x is given twice/);
    const messages = [`{"tokens":[{"name":"x","sha256":"${secretish}","roles":["root"]}]}`, `{"tokens":[{"name":"x","sha256":"${secretish}","token":"${secretish}","roles":[]}]}`, `{"x":"${secretish}`]
      .map((content) => { try { AdminTokens.fromFile(file(content)); return ''; } catch (err) { return (err as Error).message; } });
    expect(messages.every((m) => m.startsWith('ADMIN_TOKENS_FILE ') && !m.includes(secretish))).toBe(true);
  });

  it('when the one-time token is used and cleared, then it matches no more', () => {
    const { tokens, token } = AdminTokens.oneTime(['partner-admin', 'compliance']);
    expect(tokens.match(token)?.roles).toEqual(['viewer', 'partner-admin', 'compliance']);
    tokens.clear();
    expect(tokens.match(token)).toBeUndefined();
  });
});

describe('admin sessions', () => {
  it('when the CSRF token differs in any way, then it does not match', () => {
    const store = new SessionStore({ nowMs: () => 0 }, { idleMs: 1000, maxMs: 2000 });
    const { id, session } = store.create({ subject: 's', method: 'oidc-session', roles: ['viewer'] });
    expect(csrfMatches(session, session.csrfToken)).toBe(true);
    expect(csrfMatches(session, `${session.csrfToken}x`)).toBe(false);
    expect(csrfMatches(session, undefined)).toBe(false);
    store.end(id);
    expect(store.touch(id)).toBeUndefined();
  });
});

describe('admin settings', () => {
  it('when the IdP issuer or client id comes alone, or the idle time exceeds the maximum, then the start is refused naming the setting', () => {
    expect(() => loadConfig({ ADMIN_OIDC_ISSUER: 'https://sso.example.com/realms/op' })).toThrow(/ADMIN_OIDC_CLIENT_ID: is needed with the other one/);
    expect(() => loadConfig({ ADMIN_OIDC_CLIENT_ID: 'c' })).toThrow(/ADMIN_OIDC_ISSUER: is needed/);
    expect(() => loadConfig({ ADMIN_OIDC_CLIENT_SECRET: 's' })).toThrow(/ADMIN_OIDC_CLIENT_SECRET: needs ADMIN_OIDC_CLIENT_ID/);
    expect(() => loadConfig({ ADMIN_SESSION_IDLE_S: '7200', ADMIN_SESSION_MAX_S: '3600' })).toThrow(/ADMIN_SESSION_IDLE_S: must be at most ADMIN_SESSION_MAX_S/);
    expect(() => loadConfig({ ADMIN_ROLES_CLAIM: 'a..b' })).toThrow(/ADMIN_ROLES_CLAIM/);
    expect(() => loadConfig({ ADMIN_CONSOLE_PORT: '0x50' })).toThrow(/ADMIN_CONSOLE_PORT/);
    expect(loadConfig({}).ADMIN_CONSOLE_PORT).toBe(8081);
  });
});
