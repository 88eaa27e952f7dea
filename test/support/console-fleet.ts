import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresProcess, startPostgres } from '../../tools/process-kit/postgres-server';
import { freePort } from '../../tools/process-kit/net-wait';
import { stopProcess } from '../../tools/process-kit/child-process';
import { IdpUser, TestIdp, startTestIdp } from './admin-idp';
import { fetchToken, requestToken } from './oauth';
import { ServiceProcess, startServiceProcess } from './service-process';
import { auditPartnersFile } from './audit-db';
import { signedQuery, txnId } from './signing';

/*
 * What the console's browser tests run against: two instances of the built service on one
 * PostgreSQL (registry and audit trail), each with an admin listener, and the operator's IdP
 * (the real oidc-provider) that knows three people, one per role.
 */

export const STAFF: Record<'admin' | 'compliance' | 'viewer', IdpUser> = {
  admin: { sub: 'pam', email: 'pam@operator.example', roles: ['partner-admin'] },
  compliance: { sub: 'carla', email: 'carla@operator.example', roles: ['compliance'] },
  viewer: { sub: 'vic', email: 'vic@operator.example', roles: ['viewer'] },
};

export interface ConsoleFleet {
  pg: PostgresProcess;
  idp: TestIdp;
  /** The instances: their partners' URL and their admin listener's (console) URL. */
  a: { svc: ServiceProcess; console: string };
  b: { svc: ServiceProcess; console: string };
  close(): Promise<void>;
}

export async function startConsoleFleet(): Promise<ConsoleFleet> {
  // Whatever started is stopped again if a later step fails: no PostgreSQL or service outlives the run.
  const started: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const stop of started.reverse()) await stop().catch(() => undefined);
  };
  try {
    const pg = await startPostgres();
    started.push(() => pg.destroy());
    const ports = [await freePort(), await freePort()];
    const consoles = ports.map((p) => `http://127.0.0.1:${p}`);
    const idp = await startTestIdp({
      users: Object.values(STAFF),
      clients: [{
        client_id: 'vc-console', token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'],
        redirect_uris: consoles.map((c) => `${c}/admin/api/v1/auth/callback`),
      }],
    });
    started.push(() => idp.close());
    const keyFile = join(mkdtempSync(join(tmpdir(), 'vc-console-key-')), 'partner-secrets.key');
    writeFileSync(keyFile, randomBytes(32).toString('hex'), { mode: 0o600 });
    const partnersFile = auditPartnersFile();
    const env = (adminPort: number) => ({
      DATABASE_URL: pg.url, AUDIT_DATABASE_URL: pg.url, AUDIT_FLUSH_MS: '20', PARTNER_SECRETS_KEY_FILE: keyFile,
      // Imported once into the empty database registry: the pages show a registry with a few partners.
      PARTNERS_FILE: partnersFile,
      ADMIN_PORT: String(adminPort), ADMIN_OIDC_ISSUER: idp.issuer, ADMIN_OIDC_CLIENT_ID: 'vc-console',
    });
    // One after the other: the first creates the schema the second then finds.
    const svcA = await startServiceProcess(env(ports[0]));
    started.push(() => stopProcess(svcA.proc, 5000));
    const svcB = await startServiceProcess(env(ports[1]));
    started.push(() => stopProcess(svcB.proc, 5000));
    return { pg, idp, a: { svc: svcA, console: consoles[0] }, b: { svc: svcB, console: consoles[1] }, close };
  } catch (err) {
    await close();
    throw err;
  }
}

export interface Credentials { apiKey: string; secret: string }

/** A legacy KYC lookup signed with these credentials (hmac-sha256, the console's default scheme): its HTTP status. */
export async function legacyKyc(url: string, c: Credentials, msisdn = '255712000001'): Promise<number> {
  const res = await fetch(`${url}/eai/verify_customer/query/kyc?${signedQuery(c, { hmac: true })}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ txn_id: txnId('ui'), msisdn }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** The token endpoint's answer to these credentials: its HTTP status. */
export async function tokenStatus(url: string, c: Credentials): Promise<number> {
  return (await requestToken(url, { clientId: c.apiKey, clientSecret: c.secret, scope: 'sim-swap:check' })).status;
}

/** A CAMARA SIM Swap check with a token obtained by these credentials: its HTTP status. */
export async function camaraSimSwap(url: string, c: Credentials, msisdn = '+255712000001'): Promise<number> {
  const token = await fetchToken(url, { clientId: c.apiKey, clientSecret: c.secret, scope: 'sim-swap:check' });
  const res = await fetch(`${url}/sim-swap/v2/check`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ phoneNumber: msisdn, maxAge: 240 }),
  });
  await res.arrayBuffer();
  return res.status;
}
