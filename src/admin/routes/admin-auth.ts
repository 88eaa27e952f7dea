import { NextFunction, Request, RequestHandler, Response } from 'express';
import ipaddr from 'ipaddr.js';
import { AdminProblem } from './problem';
import { AdminTokens } from '../auth/admin-tokens';
import { OidcIdp } from '../auth/oidc';
import { Principal, Role, hasRole } from '../auth/principal';
import { Session, SessionStore, csrfMatches } from '../auth/sessions';

export const SESSION_COOKIE = 'vc_admin_session';
export const LOGIN_COOKIE = 'vc_admin_login';
export const API_BASE = '/admin/api/v1';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface AdminAuthDeps {
  sessions: SessionStore;
  /** ADMIN_TOKENS_FILE's tokens, if any. */
  tokens?: AdminTokens;
  /** The operator's IdP, if configured. */
  oidc?: OidcIdp;
  /** The console's address as staff reach it (ADMIN_PUBLIC_URL); else the request's own. */
  publicUrl?: string;
}

/** What an authenticated request carries for the routes. */
export interface AdminLocals {
  principal: Principal;
  session?: { id: string; session: Session };
}

/** One cookie's value from the Cookie header; undefined when absent or given twice. */
export function cookieOf(req: Request, name: string): string | undefined {
  const found = (req.headers.cookie ?? '').split(';').map((c) => c.trim()).filter((c) => c.startsWith(`${name}=`));
  return found.length === 1 ? decodeURIComponent(found[0].slice(name.length + 1)) : undefined;
}

/** The console's origin: ADMIN_PUBLIC_URL's, else the one the request was addressed to. */
export function ownOrigin(req: Request, publicUrl: string | undefined): string {
  return publicUrl ? new URL(publicUrl).origin : `${req.protocol}://${req.get('host') ?? ''}`;
}

/** Secure cookies behind TLS: an https public address, or a request that came over TLS (trusted proxies included). */
export function secureCookies(req: Request, publicUrl: string | undefined): boolean {
  return publicUrl ? publicUrl.startsWith('https://') : req.secure;
}

export function isLoopback(address: string | undefined): boolean {
  if (!address || !ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() === 'loopback';
}

export function adminLocals(res: Response): AdminLocals {
  return res.locals.admin as AdminLocals;
}

/**
 * Who is calling (CONTRACT §12): a Bearer token (ADMIN_TOKENS_FILE's, else an access token of
 * the IdP), else the console's session cookie. A write made with the cookie must carry the
 * session's CSRF token, and must not come from another origin (Origin, Sec-Fetch-Site): a
 * SameSite=Strict cookie already stays home, these hold should a browser or a sibling site not.
 */
export function authenticate(deps: AdminAuthDeps): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    void (async () => {
      const header = req.headers.authorization;
      if (header !== undefined) {
        const m = /^Bearer +([\x21-\x7e]{1,4096})$/i.exec(header);
        if (!m) throw new AdminProblem(401, 'Authorization must be "Bearer <token>"');
        const principal = deps.tokens?.match(m[1]) ?? (m[1].split('.').length === 3 ? await idpToken(deps, m[1]) : undefined);
        if (!principal) throw new AdminProblem(401, 'the bearer token is not valid here (unknown, expired, or not for this service)');
        res.locals.admin = { principal } satisfies AdminLocals;
        return;
      }
      const id = cookieOf(req, SESSION_COOKIE);
      const session = id === undefined ? undefined : deps.sessions.touch(id);
      if (id === undefined || !session) throw new AdminProblem(401, id === undefined ? 'sign in first (no credentials)' : 'the session has ended; sign in again');
      if (WRITES.has(req.method)) checkCsrf(req, session, deps.publicUrl);
      res.locals.admin = { principal: session.principal, session: { id, session } } satisfies AdminLocals;
    })().then(() => next(), next);
  };
}

/** An IdP access token's caller; the IdP out of reach (its discovery document) is a 503, not the caller's fault. */
async function idpToken(deps: AdminAuthDeps, token: string): Promise<Principal | undefined> {
  try {
    return await deps.oidc?.verifyAccessToken(token);
  } catch {
    throw new AdminProblem(503, 'the identity provider cannot be reached to check this token; try again shortly', 'urn:verify-customer:admin:sign-in');
  }
}

function checkCsrf(req: Request, session: Session, publicUrl: string | undefined): void {
  const origin = req.headers.origin;
  if (req.headers['sec-fetch-site'] === 'cross-site' || (origin !== undefined && origin !== ownOrigin(req, publicUrl))) {
    throw new AdminProblem(403, 'a change must come from the console\'s own origin', 'urn:verify-customer:admin:csrf');
  }
  const token = req.headers['x-csrf-token'];
  if (!csrfMatches(session, typeof token === 'string' ? token : undefined)) {
    throw new AdminProblem(403, 'a change made with the session cookie needs the X-CSRF-Token of GET /session', 'urn:verify-customer:admin:csrf');
  }
}

/** Refuses (403) a caller without the role; partner-admin and compliance include viewer (principal.ts). */
export function requireRole(role: Role): RequestHandler {
  return (_req, res, next) => {
    const { principal } = adminLocals(res);
    next(hasRole(principal, role) ? undefined : new AdminProblem(403, `needs the role ${role}`));
  };
}
