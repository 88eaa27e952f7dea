import { join } from 'node:path';
import { startNode } from '../../tools/process-kit/child-process';

/*
 * The operator's IdP for the admin API's tests: test/support/test-idp.mjs (the real
 * `oidc-provider`) as a process of its own, and a small browser: a cookie jar per origin that
 * follows redirects by hand and submits the IdP's login and consent forms.
 */

export interface IdpUser {
  sub: string;
  email: string;
  roles: string[];
}

export interface TestIdp {
  issuer: string;
  close(): Promise<void>;
}

export const ADMIN_RESOURCE = 'urn:verify-customer:admin-api';

export async function startTestIdp(opts: { users: IdpUser[]; clients: Record<string, unknown>[]; resourceClients?: string[] }): Promise<TestIdp> {
  const idp = await startNode([join(__dirname, 'test-idp.mjs')], {
    env: {
      PATH: process.env.PATH,
      IDP_CONFIG: JSON.stringify({ users: opts.users, clients: opts.clients, resource: ADMIN_RESOURCE, resourceClients: opts.resourceClients ?? [] }),
    },
    ready: /test-idp listening (http:\/\/\S+)/, what: 'test IdP',
  });
  return { issuer: (idp.match as RegExpExecArray)[1], close: async () => { await idp.stop(2000); } };
}

/** Cookies per host:port, as a browser keeps them (name → value; attributes ignored but path/expiry-less). */
export class CookieJar {
  private readonly jars = new Map<string, Map<string, string>>();

  header(url: URL): string | undefined {
    const jar = this.jars.get(url.host);
    return jar && jar.size > 0 ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : undefined;
  }

  store(url: URL, res: Response): void {
    const jar = this.jars.get(url.host) ?? new Map<string, string>();
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    this.jars.set(url.host, jar);
  }

  get(host: string, name: string): string | undefined {
    return this.jars.get(host)?.get(name);
  }
}

export interface Visit {
  url: URL;
  status: number;
  text: string;
  res: Response;
}

/** One request with the jar's cookies, no redirect followed. */
export async function visit(jar: CookieJar, url: URL, init: RequestInit = {}): Promise<Visit> {
  const headers = new Headers(init.headers);
  const cookie = jar.header(url);
  if (cookie) headers.set('cookie', cookie);
  const res = await fetch(url, { ...init, headers, redirect: 'manual' });
  jar.store(url, res);
  return { url, status: res.status, text: await res.text(), res };
}

function formOf(html: string, base: URL): { action: URL; fields: Record<string, string> } | undefined {
  const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) return undefined;
  const fields: Record<string, string> = {};
  for (const m of form[2].matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) fields[m[1]] = m[2];
  return { action: new URL(form[1].replace(/&amp;/g, '&'), base), fields };
}

/**
 * Follows a sign-in from `start` as a browser would: redirects, the IdP's login form (as `user`)
 * and consent form, until a response that is neither (a redirect to `stopAt`, or a page). Returns
 * that last step; a redirect whose Location starts with `stopAt` is not followed.
 */
export async function browseSignIn(jar: CookieJar, start: URL, user: string, stopAt?: string): Promise<Visit> {
  let step = await visit(jar, start);
  for (let hops = 0; hops < 20; hops++) {
    if (step.status >= 300 && step.status < 400) {
      const location = step.res.headers.get('location') ?? '';
      if (stopAt !== undefined && location.startsWith(stopAt)) return step;
      step = await visit(jar, new URL(location, step.url));
      continue;
    }
    const form = step.status === 200 ? formOf(step.text, step.url) : undefined;
    if (!form || !form.action.pathname.startsWith('/interaction/')) return step;
    const body = new URLSearchParams(form.fields);
    if (form.fields.prompt === 'login') {
      body.set('login', user);
      body.set('password', 'any');
    }
    step = await visit(jar, form.action, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  }
  throw new Error(`sign-in did not finish within 20 steps (last: ${step.status} ${step.url.href})`);
}
