import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clock } from '../../src/kernel/clock';
import { API, AdminHarness, startAdminHarness } from '../support/admin-harness';
import { Harness, startHarness } from '../support/harness';
import { captureLogs } from '../support/log-capture';
import { generateSigningJwk, writeSigningKeyFile } from '../support/oauth';
import { adminApiSpec } from '../support/openapi-validator';

/*
 * Console sessions end after ADMIN_SESSION_IDLE_S without a request and ADMIN_SESSION_MAX_S
 * after sign-in (CONTRACT §12); outside production with no sign-in configured, start-up makes a
 * one-time login link that works once, from this machine only.
 */

class MovableClock implements Clock {
  offsetMs = 0;
  nowMs(): number {
    return Date.now() + this.offsetMs;
  }
}

describe('admin sessions: idle and absolute expiry', () => {
  const clock = new MovableClock();
  let a: AdminHarness;
  beforeAll(async () => {
    a = await startAdminHarness({ env: { ADMIN_SESSION_IDLE_S: '600', ADMIN_SESSION_MAX_S: '1800' }, serverOptions: { clock } });
  }, 60_000);
  afterAll(() => a?.close());

  it('when a session is idle longer than ADMIN_SESSION_IDLE_S, then it has ended (401); a request within it keeps it alive', async () => {
    const s = await a.signIn('vera');
    clock.offsetMs += 590_000;
    expect((await a.call('GET', '/session', { session: s })).status).toBe(200);
    clock.offsetMs += 590_000;
    expect((await a.call('GET', '/session', { session: s })).status).toBe(200);
    clock.offsetMs += 601_000;
    const ended = await a.call('GET', '/session', { session: s });
    expect([ended.status, (ended.body as { detail: string }).detail]).toEqual([401, 'the session has ended; sign in again']);
  });

  it('when a session is used steadily past ADMIN_SESSION_MAX_S, then it ends anyway, and says when in advance', async () => {
    const s = await a.signIn('vera');
    const first = await a.call('GET', '/session', { session: s });
    const { expiresAt } = first.body as { expiresAt: string };
    expect(Date.parse(expiresAt) - clock.nowMs()).toBeGreaterThan(1_790_000);
    for (let i = 0; i < 3; i++) {
      clock.offsetMs += 500_000;
      expect((await a.call('GET', '/session', { session: s })).status).toBe(200);
    }
    clock.offsetMs += 301_000;
    expect((await a.call('GET', '/session', { session: s })).status).toBe(401);
  });
});

describe('the one-time login link (development, no sign-in configured)', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ env: { NODE_ENV: 'development' } }); });
  afterAll(() => h?.close());

  function linkOf(): URL {
    const line = h.server.consoleBanner.find((l) => l.includes('/auth/link?token='));
    if (!line) throw new Error(`no login link in ${JSON.stringify(h.server.consoleBanner)}`);
    return new URL(/(http:\S+)/.exec(line)?.[1] ?? '');
  }

  it('when the service starts without ADMIN_PORT outside production, then the console listens on loopback only and its address and a login link are given', () => {
    expect(h.server.consoleUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(h.server.consoleBanner[0]).toBe(`verify-customer console: ${h.server.consoleUrl}/admin/`);
    expect(linkOf().origin).toBe(h.server.consoleUrl);
  });

  it('when the link is opened, then it gives a session with every role, once; a second opening is refused', async () => {
    const link = linkOf();
    const providers = await fetch(`${h.server.consoleUrl}${API}/auth/providers`);
    expect(await providers.json()).toEqual({ oidc: false, loginLink: true });
    const wrong = await fetch(`${link.origin}${link.pathname}?token=not-the-token`, { redirect: 'manual' });
    expect(wrong.status).toBe(401);
    const res = await fetch(link, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('http-equiv="refresh" content="0;url=/admin/"');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('vc_admin_session='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/admin/);
    const session = await fetch(`${h.server.consoleUrl}${API}/session`, { headers: { cookie: (cookie ?? '').split(';')[0] } });
    const body = await session.json();
    adminApiSpec().assertResponse('GET', `${API}/session`, session.status, session.headers, body);
    expect(body).toMatchObject({ subject: 'one-time-login', method: 'link-session', roles: ['viewer', 'partner-admin', 'compliance'] });
    const again = await fetch(link, { redirect: 'manual' });
    expect(again.status).toBe(404);
  });

  it('when the partners\' port is asked for the console or the link, then neither is there', async () => {
    const link = linkOf();
    for (const path of ['/admin/', `${API}/auth/link${link.search}`, `${API}/session`]) {
      expect([path, (await fetch(`${h.url}${path}`, { redirect: 'manual' })).status]).toEqual([path, 404]);
    }
  });
});

describe('the admin API in production without ADMIN_PORT', () => {
  it('when NODE_ENV=production and ADMIN_PORT is unset, then no console listener is opened', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vc-prod-'));
    writeSigningKeyFile(join(dir, 'keys.json'), [await generateSigningJwk()]);
    const logs = captureLogs('info');
    const h = await startHarness({
      env: {
        NODE_ENV: 'production', PARTNERS_FILE: join(__dirname, '../../fixtures/demo-partners.json'),
        OAUTH_SIGNING_KEY_FILE: join(dir, 'keys.json'), PUBLIC_URL: 'https://verify.example.com', SHUTDOWN_READINESS_DELAY_MS: '0',
      },
      logger: logs.logger,
    });
    try {
      expect(h.server.consoleUrl).toBeUndefined();
      expect(h.server.consoleBanner).toEqual([]);
      expect(logs.lines().map((l) => l.msg)).toContain('admin API and console off: production without ADMIN_PORT (set ADMIN_PORT to serve them on the admin listener)');
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the admin API while the IdP is out of reach', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ env: { ADMIN_OIDC_ISSUER: 'http://127.0.0.1:9/realms/down', ADMIN_OIDC_CLIENT_ID: 'vc-console' } }); });
  afterAll(() => h?.close());

  it('when a JWT is sent as Bearer or a sign-in is started, then a 503 problem says the IdP cannot be reached (never a 500); no token is 401 as ever', async () => {
    const base = `${h.server.consoleUrl ?? ''}${API}`;
    const bearer = await fetch(`${base}/session`, { headers: { authorization: 'Bearer aaa.bbb.ccc' } });
    expect([bearer.status, ((await bearer.json()) as { type: string }).type]).toEqual([503, 'urn:verify-customer:admin:sign-in']);
    const login = await fetch(`${base}/auth/login`, { redirect: 'manual' });
    expect(login.status).toBe(503);
    expect((await fetch(`${base}/session`)).status).toBe(401);
    expect(await (await fetch(`${base}/auth/providers`)).json()).toEqual({ oidc: true, loginLink: false });
  });
});
