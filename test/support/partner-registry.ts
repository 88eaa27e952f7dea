import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPartnersPath } from '../../src/kernel/repo-paths';
import { PostgresProcess, startPostgres } from '../../tools/process-kit/postgres-server';
import { postJson } from './harness';
import { requestToken } from './oauth';
import { signedQuery, txnId } from './signing';

/** The two registry stores of CONTRACT §12, as a test's service is configured for one. */
export type RegistryKind = 'file' | 'postgres';

export interface RegistryEnv {
  env: Record<string, string>;
  /** The file store's PARTNERS_FILE (a copy of the demo registry), or the file imported into the database. */
  file: string;
  pg?: PostgresProcess;
  keyFile?: string;
  close(): Promise<void>;
}

/** A fresh registry: a copy of the demo file, or an own PostgreSQL importing that copy at start, under a key file of its own. */
export async function registryEnv(kind: RegistryKind, pg?: PostgresProcess): Promise<RegistryEnv> {
  const dir = mkdtempSync(join(tmpdir(), 'vc-registry-'));
  const file = join(dir, 'partners.json');
  copyFileSync(defaultPartnersPath(), file);
  if (kind === 'file') return { env: { PARTNERS_FILE: file }, file, close: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })) };
  const own = pg === undefined;
  const db = pg ?? await startPostgres();
  const keyFile = join(dir, 'partner-secrets.key');
  writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
  return {
    env: { DATABASE_URL: db.url, PARTNER_SECRETS_KEY_FILE: keyFile, PARTNERS_FILE: file }, file, pg: db, keyFile,
    close: async () => {
      if (own) await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Creds {
  apiKey: string;
  secret: string;
}

/** A signed legacy KYC call's status (200 answered; 401 refused). */
export async function legacyStatus(url: string, c: Creds, opts: { omitTimestamp?: boolean } = {}): Promise<number> {
  const r = await postJson(`${url}/eai/verify_customer/query/kyc?${signedQuery(c, opts)}`, { txn_id: txnId('r'), msisdn: '255712000001' });
  return r.status;
}

/** The token endpoint's status and token for these credentials. */
export async function tokenFor(url: string, c: Creds): Promise<{ status: number; token?: string }> {
  const r = await requestToken(url, { clientId: c.apiKey, clientSecret: c.secret, scope: 'sim-swap' });
  return { status: r.status, ...(typeof r.body.access_token === 'string' ? { token: r.body.access_token } : {}) };
}

/** A CAMARA SIM swap check with a bearer token: 200, or 401 once the token is refused. */
export async function camaraStatus(url: string, token: string): Promise<number> {
  const res = await fetch(`${url}/sim-swap/v2/check`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ phoneNumber: '+255712000001' }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Polls `check` until it holds; how long that took, in ms (fails past timeoutMs). */
export async function timeUntil(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await check()) return Math.round(performance.now() - start);
    if (performance.now() - start > timeoutMs) throw new Error(`not reached in ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
