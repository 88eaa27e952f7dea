import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config';
import { Logger, createLogger } from '../../src/observability/logger';
import { RunningServer, ServerOptions, startServer } from '../../src/server';
import { loadFixtures, defaultFixturesPath } from '../../src/simulator/fixtures';
import { Simulator, createSimulator } from '../../src/simulator/simulator';
import { partnerApiSpec } from './openapi-validator';
import { acquireTestState, waitForRedisState } from './shared-redis';
import { DEMO, signedQuery, txnId } from './signing';

export interface Harness {
  server: RunningServer;
  url: string;
  sim: Simulator;
  simUrl: string;
  /** POSTs a JSON body (object or raw string) to an operation with a signed demo query unless one is given. */
  post(operation: 'kyc' | 'sim_swap', body: unknown, opts?: PostOptions): Promise<Reply>;
  close(): Promise<void>;
}

export interface PostOptions {
  query?: string;
  headers?: Record<string, string>;
  contentType?: string | null;
}

export type BooleanString = 'true' | 'false';

/** The result of a successful legacy answer: KYC's flags or SIM swap's (docs/openapi.yaml). */
export interface LegacyResult {
  msisdn: string;
  is_prepaid?: BooleanString;
  is_active?: BooleanString;
  is_valid?: BooleanString;
  sim_swapped?: BooleanString;
  sim_swapped_dt?: string;
}

/** The failure pair: 11111 (request problem) or 9999 (system problem). */
export interface LegacyFailure {
  code: string;
  desc: string;
}

/**
 * Every field a legacy answer may hold: success is {code, desc, result}; a failure is flat
 * {code, desc} for kyc and unknown paths, {response: {code, desc}} for sim_swap. Which ones
 * are present depends on the operation and the outcome, so all are optional.
 */
export interface LegacyAnswer {
  code?: string;
  desc?: string;
  result?: LegacyResult;
  response?: LegacyFailure;
}

export interface Reply {
  status: number;
  headers: Headers;
  /** The parsed JSON object ({} when the body is not one: see text). */
  body: LegacyAnswer;
  text: string;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  simulator?: Simulator;
  serverOptions?: ServerOptions;
  logger?: Logger;
}

/** The real server on port 0 in front of the real simulator (its own, unless one is given). */
export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const ownSim = !opts.simulator;
  const sim = opts.simulator ?? createSimulator({ subscribers: loadFixtures(defaultFixturesPath()), synthetic: false });
  const simUrl = ownSim ? await sim.listen(0) : (opts.env?.SIM_BASE ?? '');
  // A given simulator's address: SIM_BASE, else the one the test's own HLR_URL names (customer records sit beside it).
  const crmBase = simUrl || (opts.env?.HLR_URL ?? '').replace(/\/hlr$/, '');
  // TEST_STATE=redis|cluster: state on a shared Redis (own key prefix) unless the test brings a store.
  const state = opts.serverOptions?.store ? undefined : await acquireTestState(opts.env);
  const auditDir = mkdtempSync(join(tmpdir(), 'vc-audit-'));
  const config = loadConfig({
    PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ADMIN_CONSOLE_PORT: '0',
    HLR_URL: `${simUrl}/hlr`, SIM_URL: `${simUrl}/sim`, CRM_URL: `${crmBase}/crm`,
    // Each server's own audit files, never the repository's ./var.
    AUDIT_DIR: auditDir,
    ...state?.env,
    ...opts.env,
  });
  const server = await startServer(config, { logger: opts.logger ?? createLogger('silent'), ...opts.serverOptions });
  const url = server.url;
  if ((config.REDIS_URL || config.REDIS_CLUSTER_NODES) && !opts.serverOptions?.store) await waitForRedisState(url);
  return {
    server, url, sim, simUrl,
    post: (operation, body, p = {}) => postJson(`${url}/eai/verify_customer/query/${operation}?${p.query ?? signedQuery(DEMO)}`, body, p),
    close: async () => {
      await server.close();
      if (ownSim) await sim.close();
      state?.release();
      rmSync(auditDir, { recursive: true, force: true });
    },
  };
}

export async function postJson(url: string, body: unknown, p: PostOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...p.headers };
  if (p.contentType !== null) headers['content-type'] = p.contentType ?? 'application/json';
  const res = await fetch(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch { parsed = undefined; }
  // Every answer of a partner operation must match docs/openapi.yaml, whatever the test asserts:
  // that is what holds the body to LegacyAnswer's fields.
  const path = new URL(url).pathname;
  if (partnerApiSpec().operation('post', path)) partnerApiSpec().assertResponse('post', path, res.status, res.headers, parsed, text);
  return { status: res.status, headers: res.headers, body: asAnswer(parsed), text };
}

/** A parsed legacy answer as LegacyAnswer: the object itself, or {} for anything else. */
export function asAnswer(parsed: unknown): LegacyAnswer {
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {};
}

/** The result of an answer that must be a success; fails with the whole body when it is not. */
export function resultOf(r: Reply): LegacyResult {
  if (!r.body.result) throw new Error(`expected a result, got ${r.status} ${r.text}`);
  return r.body.result;
}

export { txnId };
