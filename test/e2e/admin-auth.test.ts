import { API, AdminHarness, AdminReply, Credentials, startAdminHarness } from '../support/admin-harness';
import { adminApiSpec } from '../support/openapi-validator';

/*
 * Who may call the admin API (CONTRACT §12): staff signed in through the operator's IdP (the
 * real oidc-provider, code + PKCE through its own forms), that IdP's access tokens as Bearer, and
 * ADMIN_TOKENS_FILE's tokens. Every route of docs/openapi-admin.yaml answers 401 without
 * credentials and 403 to a role too small; none answers on the partners' port.
 */

type Role = 'viewer' | 'partner-admin' | 'compliance' | 'any';

interface Route {
  method: string;
  path: string;
  role: Role;
}

/** Every operation of the document that needs credentials, with the role its summary names. */
function protectedRoutes(): Route[] {
  const paths = adminApiSpec().doc.paths as Record<string, Record<string, { security?: unknown[]; summary?: string }>>;
  const out: Route[] = [];
  for (const [template, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (method === 'parameters' || (Array.isArray(op.security) && op.security.length === 0)) continue;
      const role = /\((viewer|partner-admin|compliance)\)/.exec(op.summary ?? '')?.[1] as Role | undefined;
      out.push({ method: method.toUpperCase(), path: template.replace('{name}', 'no-such-partner').replace('{id}', 'no-such-id'), role: role ?? 'any' });
    }
  }
  return out;
}

function problem(r: AdminReply): { type: string; status: number; detail: string } {
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return r.body as { type: string; status: number; detail: string };
}

describe('admin API: who may call it', () => {
  let a: AdminHarness;
  beforeAll(async () => { a = await startAdminHarness(); }, 60_000);
  afterAll(() => a?.close());

  it('when a partner-admin signs in through the IdP (code + PKCE, its login and consent forms), then the session names them, their roles and a CSRF token', async () => {
    const s = await a.signIn('pat');
    expect(s.cookie).toMatch(/^vc_admin_session=/);
    const r = await a.call('GET', '/session', { session: s });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ subject: 'pat@operator.example', method: 'oidc-session', roles: ['viewer', 'partner-admin'] });
    expect(s.csrf).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  it('when the session cookie is set, then it is HttpOnly, SameSite=Strict and scoped to /admin', async () => {
    const login = await fetch(`${a.adminUrl}${API}/auth/login`, { redirect: 'manual' });
    expect(login.status).toBe(302);
    expect(login.headers.get('location')).toMatch(new RegExp(`^${a.idp.issuer}/auth\\?.*code_challenge_method=S256`));
    const loginCookie = login.headers.getSetCookie().find((c) => c.startsWith('vc_admin_login='));
    expect(loginCookie).toMatch(/HttpOnly/);
    expect(loginCookie).toMatch(/SameSite=Lax/);
    const s = await a.signIn('vera');
    expect(s.jar.get(new URL(a.adminUrl).host, 'vc_admin_session')).toBeDefined();
  });

  it('when the IdP grants none of the console\'s roles, then sign-in is refused (403) and no session is made', async () => {
    await expect(a.signIn('nobody')).rejects.toThrow(/ended at 403/);
  });

  it('when an IdP access token is sent as Bearer, then its roles apply: a viewer reads and cannot change', async () => {
    const token = await a.accessToken('vera');
    const session = await a.call('GET', '/session', { bearer: token });
    expect([session.status, session.body]).toEqual([200, expect.objectContaining({ subject: 'vera@operator.example', method: 'oidc-bearer', roles: ['viewer'], csrfToken: null })]);
    expect((await a.call('GET', '/partners', { bearer: token })).status).toBe(200);
    expect((await a.call('POST', '/partners', { bearer: token }, { body: { name: 'x', operations: [] } })).status).toBe(403);
  });

  it('when an ADMIN_TOKENS_FILE token is sent as Bearer, then the caller is the token\'s name with its roles; a wrong token is 401', async () => {
    const r = await a.call('GET', '/session', { bearer: a.tokens['admin-bot'] });
    expect(r.body).toMatchObject({ subject: 'admin-bot', method: 'token-bearer', roles: ['viewer', 'partner-admin'] });
    const wrong = await a.call('GET', '/session', { bearer: `${a.tokens['admin-bot']}x` });
    expect(wrong.status).toBe(401);
    expect(problem(wrong).detail).not.toContain(a.tokens['admin-bot']);
  });

  it('when an IdP token\'s claims are altered (its signature no longer holds), or a token is malformed, then it is 401', async () => {
    const token = await a.accessToken('pat');
    const [header, payload] = token.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), roles: ['compliance'] })).toString('base64url')}.${token.split('.')[2]}`;
    expect((await a.call('GET', '/session', { bearer: forged })).status).toBe(401);
    expect((await a.call('GET', '/session', { bearer: 'a.b.c' })).status).toBe(401);
    // Positive control: the untouched token passes.
    expect((await a.call('GET', '/session', { bearer: token })).status).toBe(200);
  });

  it('when any admin route is called without credentials, then it answers 401 with a problem body', async () => {
    const routes = protectedRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(14);
    for (const r of routes) {
      const reply = await a.call(r.method, r.path, {});
      expect([r.method, r.path, reply.status]).toEqual([r.method, r.path, 401]);
      expect(problem(reply).status).toBe(401);
      expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('when a caller holds a role too small for a route, then it answers 403 (every route of the document)', async () => {
    const noRoles = await a.accessToken('nobody');
    const smaller: Record<Exclude<Role, 'any'>, Credentials> = {
      viewer: { bearer: noRoles },
      'partner-admin': { bearer: a.tokens['viewer-bot'] },
      compliance: { bearer: a.tokens['admin-bot'] },
    };
    let checked = 0;
    for (const r of protectedRoutes()) {
      if (r.role === 'any') continue;
      const reply = await a.call(r.method, r.path, smaller[r.role], { body: r.method === 'GET' || r.method === 'DELETE' ? undefined : {} });
      expect([r.method, r.path, reply.status]).toEqual([r.method, r.path, 403]);
      expect(problem(reply).detail).toBe(`needs the role ${r.role}`);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(12);
    // Positive control: compliance reaches the audit search (400: it needs msisdn or partner), a larger role is not refused.
    expect((await a.call('GET', '/audit', { bearer: a.tokens['compliance-bot'] })).status).toBe(400);
  });

  it('when an admin route is asked on the partners\' port, then it is not there (404 in the partners\' shape), while the admin port answers it', async () => {
    for (const r of protectedRoutes()) {
      const res = await fetch(`${a.h.url}${API}${r.path}`, { method: r.method, headers: { authorization: `Bearer ${a.tokens['admin-bot']}` } });
      expect([r.method, r.path, res.status]).toEqual([r.method, r.path, 404]);
      expect(res.headers.get('content-type')).not.toMatch(/problem/);
    }
    for (const path of [`${API}/auth/login`, `${API}/auth/providers`, '/admin/']) {
      expect([path, (await fetch(`${a.h.url}${path}`, { redirect: 'manual' })).status]).toEqual([path, 404]);
    }
    expect((await a.call('GET', '/partners', { bearer: a.tokens['admin-bot'] })).status).toBe(200);
  });
});

describe('admin API: CSRF and sign-out', () => {
  let a: AdminHarness;
  beforeAll(async () => { a = await startAdminHarness(); }, 60_000);
  afterAll(() => a?.close());

  it('when a session write comes without the CSRF token, or from another origin, then it is refused (403) and nothing is done', async () => {
    const s = await a.signIn('pat');
    const noToken = await a.call('POST', '/auth/logout', { session: s }, { noCsrf: true });
    expect([noToken.status, problem(noToken).type]).toEqual([403, 'urn:verify-customer:admin:csrf']);
    const wrongToken = await a.call('POST', '/auth/logout', { session: { ...s, csrf: `${s.csrf}x` } });
    expect(wrongToken.status).toBe(403);
    const foreign = await a.call('POST', '/auth/logout', { session: s }, { headers: { origin: 'https://evil.example' } });
    expect([foreign.status, problem(foreign).type]).toEqual([403, 'urn:verify-customer:admin:csrf']);
    const crossSite = await a.call('POST', '/auth/logout', { session: s }, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    const create = await a.call('POST', '/partners', { session: s }, { noCsrf: true, body: { name: 'csrf-victim', operations: ['kyc'] } });
    expect(create.status).toBe(403);
    // Nothing happened: the session is still live. Positive control: with the token and its own origin, sign-out works.
    expect((await a.call('GET', '/session', { session: s })).status).toBe(200);
    const out = await a.call('POST', '/auth/logout', { session: s }, { headers: { origin: a.adminUrl } });
    expect(out.status).toBe(204);
    expect((await a.call('GET', '/session', { session: s })).status).toBe(401);
  });

  it('when a GET carries the session cookie, then it needs no CSRF token (reads change nothing)', async () => {
    const s = await a.signIn('vera');
    expect((await a.call('GET', '/partners', { session: { cookie: s.cookie, csrf: null } })).status).toBe(200);
  });
});
