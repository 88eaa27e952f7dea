import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import { freePort } from '../../tools/process-kit/net-wait';
import { ADMIN_RESOURCE, CookieJar, IdpUser, TestIdp, browseSignIn, startTestIdp, visit } from './admin-idp';
import { Harness, HarnessOptions, startHarness } from './harness';
import { adminApiSpec } from './openapi-validator';

export const API = '/admin/api/v1';

/** The IdP's people: one per role, one with every role, one with none. */
export const USERS: IdpUser[] = [
  { sub: 'vera', email: 'vera@operator.example', roles: ['viewer'] },
  { sub: 'pat', email: 'pat@operator.example', roles: ['partner-admin'] },
  { sub: 'cora', email: 'cora@operator.example', roles: ['compliance'] },
  { sub: 'nobody', email: 'nobody@operator.example', roles: ['intern'] },
];

export type TokenName = 'viewer-bot' | 'admin-bot' | 'compliance-bot';
const TOKEN_ROLES: Record<TokenName, string[]> = { 'viewer-bot': ['viewer'], 'admin-bot': ['partner-admin'], 'compliance-bot': ['compliance'] };

export interface AdminReply {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export interface Credentials {
  bearer?: string;
  session?: { cookie: string; csrf: string | null };
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text (sent as is with content-type application/json unless headers say otherwise). */
  raw?: string;
  headers?: Record<string, string>;
  /** Skip the CSRF header a session write normally carries. */
  noCsrf?: boolean;
}

export interface AdminHarness {
  h: Harness;
  idp: TestIdp;
  adminUrl: string;
  /** PARTNERS_FILE (a copy of the demo registry, written by the admin API). */
  partnersFile: string;
  /** ADMIN_TOKENS_FILE's tokens by name. */
  tokens: Record<TokenName, string>;
  /** Calls the admin API; every answer is checked against docs/openapi-admin.yaml. */
  call(method: string, path: string, creds: Credentials, opts?: CallOptions): Promise<AdminReply>;
  /** Signs `user` in to the console through the IdP (code + PKCE, its forms): the session cookie and CSRF token. */
  signIn(user: string): Promise<{ cookie: string; csrf: string | null; jar: CookieJar }>;
  /** An access token of the IdP for `user` (a CLI client's own code + PKCE flow), to send as Bearer. */
  accessToken(user: string): Promise<string>;
  close(): Promise<void>;
}

const CLI_REDIRECT = 'http://127.0.0.1/cli-callback';

/** The service (ADMIN_PORT, the test IdP as ADMIN_OIDC_ISSUER, a tokens file) and the IdP, both real. */
export async function startAdminHarness(opts: HarnessOptions = {}): Promise<AdminHarness> {
  const adminPort = await freePort();
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  const idp = await startTestIdp({
    users: USERS,
    clients: [
      { client_id: 'vc-console', token_endpoint_auth_method: 'none', redirect_uris: [`${adminUrl}${API}/auth/callback`], grant_types: ['authorization_code'], response_types: ['code'] },
      { client_id: 'vc-cli', token_endpoint_auth_method: 'none', redirect_uris: [CLI_REDIRECT], grant_types: ['authorization_code'], response_types: ['code'] },
    ],
    resourceClients: ['vc-cli'],
  });
  const dir = mkdtempSync(join(tmpdir(), 'vc-admin-'));
  const tokens = Object.fromEntries(Object.keys(TOKEN_ROLES).map((n) => [n, randomBytes(24).toString('base64url')])) as Record<TokenName, string>;
  const tokensFile = join(dir, 'admin-tokens.json');
  writeFileSync(tokensFile, JSON.stringify({
    tokens: Object.entries(TOKEN_ROLES).map(([name, roles]) => ({ name, roles, sha256: createHash('sha256').update(tokens[name as TokenName]).digest('hex') })),
  }));
  // The registry the admin API writes: a copy of the demo partners (the shipped demo file is read-only).
  const partnersFile = join(dir, 'partners.json');
  copyFileSync(join(__dirname, '../../fixtures/demo-partners.json'), partnersFile);
  let h: Harness;
  try {
    h = await startHarness({
      ...opts,
      env: {
        ADMIN_PORT: String(adminPort), ADMIN_OIDC_ISSUER: idp.issuer, ADMIN_OIDC_CLIENT_ID: 'vc-console', ADMIN_OIDC_AUDIENCE: ADMIN_RESOURCE,
        ADMIN_TOKENS_FILE: tokensFile, PARTNERS_FILE: partnersFile, ...opts.env,
      },
    });
  } catch (err) {
    await idp.close();
    throw err;
  }

  async function call(method: string, path: string, creds: Credentials, o: CallOptions = {}): Promise<AdminReply> {
    const headers: Record<string, string> = {};
    if (creds.bearer !== undefined) headers.authorization = `Bearer ${creds.bearer}`;
    if (creds.session) {
      headers.cookie = creds.session.cookie;
      if (!o.noCsrf && creds.session.csrf && method !== 'GET') headers['x-csrf-token'] = creds.session.csrf;
    }
    let body: string | undefined;
    if (o.raw !== undefined || o.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = o.raw ?? JSON.stringify(o.body);
    }
    Object.assign(headers, o.headers);
    const res = await fetch(`${adminUrl}${API}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown;
    try { parsed = JSON.parse(text); } catch { parsed = undefined; }
    const docPath = `${API}${path.split('?')[0]}`;
    if (adminApiSpec().operation(method, docPath)) adminApiSpec().assertResponse(method, docPath, res.status, res.headers, parsed, text);
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  async function signIn(user: string) {
    const jar = new CookieJar();
    const last = await browseSignIn(jar, new URL(`${adminUrl}${API}/auth/login`), user);
    if (last.status !== 200 || !last.url.pathname.endsWith('/auth/callback')) throw new Error(`sign-in as ${user} ended at ${last.status} ${last.url.pathname}: ${last.text.slice(0, 300)}`);
    const id = jar.get(new URL(adminUrl).host, 'vc_admin_session');
    if (!id) throw new Error('no session cookie after sign-in');
    const cookie = `vc_admin_session=${id}`;
    const session = await call('GET', '/session', { session: { cookie, csrf: null } });
    return { cookie, csrf: (session.body as { csrfToken: string | null }).csrfToken, jar };
  }

  let cli: client.Configuration | undefined;
  async function accessToken(user: string): Promise<string> {
    cli ??= await client.discovery(new URL(idp.issuer), 'vc-cli', undefined, client.None(), { execute: [client.allowInsecureRequests] });
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(cli, {
      redirect_uri: CLI_REDIRECT, scope: 'openid admin', resource: ADMIN_RESOURCE, state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    });
    const last = await browseSignIn(new CookieJar(), url, user, CLI_REDIRECT);
    const location = last.res.headers.get('location');
    if (!location) throw new Error(`no redirect back to the CLI: ${last.status} ${last.text.slice(0, 300)}`);
    const tokens = await client.authorizationCodeGrant(cli, new URL(location), { pkceCodeVerifier: verifier, expectedState: state });
    return tokens.access_token;
  }

  return {
    h, idp, adminUrl, partnersFile, tokens, call, signIn, accessToken,
    close: async () => {
      await h.close();
      await idp.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export { visit };
