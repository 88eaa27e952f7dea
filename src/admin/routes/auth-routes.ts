import { randomBytes } from 'node:crypto';
import { CookieOptions, Request, Response, Router } from 'express';
import { Clock } from '../../kernel/clock';
import { Logger } from '../../observability/logger';
import {
  API_BASE, AdminAuthDeps, LOGIN_COOKIE, SESSION_COOKIE, adminLocals, authenticate, cookieOf, isLoopback, ownOrigin, secureCookies,
} from './admin-auth';
import { AdminTokens } from '../auth/admin-tokens';
import { PendingLogin } from '../auth/oidc';
import { Principal } from '../auth/principal';
import { AdminProblem } from './problem';

const LOGIN_TTL_MS = 600_000;
const MAX_PENDING = 1000;
const RETURN_TO = /^\/admin\/[A-Za-z0-9/_.~%?=&#-]{0,500}$/;

export interface AuthRoutesDeps extends AdminAuthDeps {
  logger: Logger;
  clock: Clock;
  /** The one-time login link's token (development without any sign-in configured). */
  oneTime?: AdminTokens;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Signed in: a page of our own origin that moves on to the console. Not a 302: the IdP's
 * redirect back is a cross-site navigation, and a browser does not send a SameSite=Strict cookie
 * along a redirect chain that started on another site; a navigation this page starts is same-site.
 */
function landing(res: Response, returnTo: string): void {
  const to = escapeHtml(returnTo);
  res.status(200).type('text/html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${to}">`
    + `<title>Signed in</title></head><body><p>Signed in. <a href="${to}">Continue to the console</a>.</p></body></html>`);
}

/** The sign-in steps and the caller's session (docs/openapi-admin.yaml, tag "session"). */
export function authRoutes(deps: AuthRoutesDeps): Router {
  const router = Router();
  const pending = new Map<string, PendingLogin & { expiresMs: number }>();
  const cookieBase = (req: Request): CookieOptions => ({ httpOnly: true, secure: secureCookies(req, deps.publicUrl), path: '/admin' });

  function startSession(req: Request, res: Response, principal: Principal): void {
    const { id } = deps.sessions.create(principal);
    res.cookie(SESSION_COOKIE, id, { ...cookieBase(req), sameSite: 'strict' });
  }

  router.get('/auth/providers', (_req, res) => {
    res.json({ oidc: deps.oidc !== undefined, loginLink: deps.oneTime !== undefined });
  });

  router.get('/auth/login', async (req, res) => {
    if (!deps.oidc) throw new AdminProblem(404, 'sign-in through an identity provider is not configured (ADMIN_OIDC_ISSUER)');
    const given = req.query.returnTo;
    const returnTo = typeof given === 'string' && RETURN_TO.test(given) ? given : '/admin/';
    const redirectUri = `${deps.publicUrl ?? ownOrigin(req, undefined)}${API_BASE}/auth/callback`;
    let started;
    try {
      started = await deps.oidc.startLogin(redirectUri, returnTo);
    } catch (err) {
      deps.logger.warn({ err: { message: (err as Error).message } }, 'admin sign-in: the identity provider cannot be reached');
      throw new AdminProblem(503, 'the identity provider cannot be reached; try again shortly', 'urn:verify-customer:admin:sign-in');
    }
    const id = randomBytes(24).toString('base64url');
    const now = deps.clock.nowMs();
    for (const [k, p] of pending) if (p.expiresMs <= now || pending.size >= MAX_PENDING) pending.delete(k);
    pending.set(id, { ...started.pending, expiresMs: now + LOGIN_TTL_MS });
    // Lax, not Strict: it must come back with the IdP's cross-site redirect to the callback.
    res.cookie(LOGIN_COOKIE, id, { ...cookieBase(req), path: `${API_BASE}/auth`, sameSite: 'lax', maxAge: LOGIN_TTL_MS });
    res.redirect(302, started.url);
  });

  router.get('/auth/callback', async (req, res) => {
    if (!deps.oidc) throw new AdminProblem(404, 'sign-in through an identity provider is not configured (ADMIN_OIDC_ISSUER)');
    const id = cookieOf(req, LOGIN_COOKIE);
    const login = id === undefined ? undefined : pending.get(id);
    if (id !== undefined) pending.delete(id);
    res.clearCookie(LOGIN_COOKIE, { ...cookieBase(req), path: `${API_BASE}/auth` });
    if (!login || login.expiresMs <= deps.clock.nowMs()) throw new AdminProblem(400, 'no sign-in under way in this browser (or it took over 10 minutes); start again', 'urn:verify-customer:admin:sign-in');
    if (typeof req.query.error === 'string') throw new AdminProblem(401, 'the identity provider did not sign you in', 'urn:verify-customer:admin:sign-in');
    let principal: Principal;
    try {
      principal = await deps.oidc.finishLogin(new URL(`${deps.publicUrl ?? ownOrigin(req, undefined)}${req.originalUrl}`), login);
    } catch (err) {
      // The library's message names the check that failed, never a token.
      deps.logger.warn({ err: { message: (err as Error).message } }, 'admin sign-in: the identity provider\'s answer was refused');
      throw new AdminProblem(401, 'the identity provider\'s answer did not check out; start again', 'urn:verify-customer:admin:sign-in');
    }
    if (principal.roles.length === 0) throw new AdminProblem(403, 'signed in, but the identity provider grants none of the console\'s roles (viewer, partner-admin, compliance)');
    startSession(req, res, principal);
    deps.logger.info({ subject: principal.subject, roles: principal.roles }, 'admin sign-in');
    landing(res, login.returnTo);
  });

  router.get('/auth/link', (req, res) => {
    const oneTime = deps.oneTime;
    if (!oneTime || oneTime.size === 0) throw new AdminProblem(404, 'no login link is in force (it works once, and only outside production without other sign-in)');
    if (!isLoopback(req.socket.remoteAddress)) throw new AdminProblem(403, 'the login link works only from this machine');
    const token = req.query.token;
    const principal = typeof token === 'string' ? oneTime.match(token) : undefined;
    if (!principal) throw new AdminProblem(401, 'the login link\'s token is not valid');
    oneTime.clear();
    startSession(req, res, { ...principal, method: 'link-session' });
    deps.logger.info({ subject: principal.subject }, 'admin sign-in with the one-time login link');
    landing(res, '/admin/');
  });

  const auth = authenticate(deps);
  router.post('/auth/logout', auth, (req, res) => {
    const { session } = adminLocals(res);
    if (!session) throw new AdminProblem(400, 'a Bearer caller has no session to end');
    deps.sessions.end(session.id);
    res.clearCookie(SESSION_COOKIE, { ...cookieBase(req), sameSite: 'strict' });
    res.status(204).end();
  });

  router.get('/session', auth, (_req, res) => {
    const { principal, session } = adminLocals(res);
    res.json({
      subject: principal.subject, method: principal.method, roles: principal.roles,
      csrfToken: session?.session.csrfToken ?? null,
      ...(session ? deps.sessions.expiries(session.session) : { idleExpiresAt: null, expiresAt: null }),
    });
  });
  return router;
}
