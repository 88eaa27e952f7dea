import express, { Router } from 'express';
import { AuditReader } from '../audit/adapters/audit-reader';
import { FileAuditReader } from '../audit/adapters/file-audit-reader';
import { PostgresAuditReader } from '../audit/adapters/postgres-audit-reader';
import { AdminSettings, AuditSettings, ServerSettings, StateSettings } from '../config/config';
import { adminAuthConfigured } from '../config/admin-settings';
import { DomainError } from '../errors/domain-errors';
import { jsonBody } from '../http/json-body';
import { Routes } from '../http/routes';
import { Clock } from '../kernel/clock';
import { Logger } from '../observability/logger';
import { PartnerAdmin } from '../partners/ports/partner-admin';
import { DeadLetters } from '../subscriptions/delivery/dead-letters';
import { MsisdnNormaliser } from '../kernel/msisdn';
import { API_BASE, authenticate } from './routes/admin-auth';
import { AdminTokens } from './auth/admin-tokens';
import { OidcIdp } from './auth/oidc';
import { SessionStore } from './auth/sessions';
import { authRoutes } from './routes/auth-routes';
import { DeadLetterStore, deadLetterRoutes } from './routes/dead-letter-routes';
import { overviewRoutes } from './routes/overview-routes';
import { partnerRoutes } from './routes/partner-routes';
import { AdminProblem, problemHandler } from './routes/problem';
import { reportRoutes } from './routes/report-routes';
import { SubscriptionLister, subscriptionRoutes } from './routes/subscription-routes';

export interface AdminDeps {
  logger: Logger;
  clock: Clock;
  partners: PartnerAdmin;
  normalise: MsisdnNormaliser;
  upstreams(): Record<string, string>;
  storeMode(): string;
  auditMode(): string;
  /** The registry's state: file, database, stale or unloaded. */
  registryKind(): string;
  /** SIM swap subscriptions, for the webhooks page. */
  subscriptions: SubscriptionLister;
}

export type AdminConfig = AdminSettings & Pick<ServerSettings, 'NODE_ENV' | 'BODY_LIMIT_BYTES'> & Pick<AuditSettings, 'AUDIT_DATABASE_URL' | 'AUDIT_DIR'>
  & Pick<StateSettings, 'REDIS_URL' | 'REDIS_CLUSTER_NODES' | 'REDIS_KEY_PREFIX'>;

export interface Admin {
  /** The admin API (under /admin/api/v1): for the admin listener only, never the partners' port. */
  routes: Routes;
  /** What to print at start once the admin listener's address is known: the console and, in development, the one-time login link. */
  banner(adminUrl: string): string[];
  close(): Promise<void>;
}

/** The management plane (CONTRACT §12): sign-in, roles, and the admin API over the registry, audit store and dead letters. */
export function createAdmin(deps: AdminDeps, config: AdminConfig): Admin {
  const { logger, clock } = deps;
  const tokens = config.ADMIN_TOKENS_FILE ? AdminTokens.fromFile(config.ADMIN_TOKENS_FILE) : undefined;
  const oidc = config.ADMIN_OIDC_ISSUER && config.ADMIN_OIDC_CLIENT_ID ? new OidcIdp({ ...config, ADMIN_OIDC_ISSUER: config.ADMIN_OIDC_ISSUER }) : undefined;
  // Outside production with no sign-in configured, `npm start` must still show the console: a token that works once, from this machine.
  const link = !adminAuthConfigured(config) && config.NODE_ENV !== 'production' ? AdminTokens.oneTime(['partner-admin', 'compliance']) : undefined;
  if (!adminAuthConfigured(config) && !link) logger.warn('admin API: no ADMIN_OIDC_ISSUER and no ADMIN_TOKENS_FILE, so nobody can sign in');
  const sessions = new SessionStore(clock, { idleMs: config.ADMIN_SESSION_IDLE_S * 1000, maxMs: config.ADMIN_SESSION_MAX_S * 1000 });
  const auth = { sessions, ...(tokens ? { tokens } : {}), ...(oidc ? { oidc } : {}), ...(config.ADMIN_PUBLIC_URL ? { publicUrl: config.ADMIN_PUBLIC_URL } : {}) };

  let letters: DeadLetters | undefined;
  const redis = config.REDIS_URL !== undefined || config.REDIS_CLUSTER_NODES !== undefined;
  const deadLetters: DeadLetterStore | undefined = redis ? {
    list: () => open().list(), replay: (ids) => open().replay(ids), drop: (id) => open().drop(id),
  } : undefined;
  function open(): DeadLetters {
    letters ??= new DeadLetters({ url: config.REDIS_URL, clusterNodes: config.REDIS_CLUSTER_NODES, keyPrefix: config.REDIS_KEY_PREFIX });
    return letters;
  }

  async function withReader<T>(fn: (reader: AuditReader) => Promise<T>): Promise<T> {
    let reader: AuditReader;
    try {
      reader = config.AUDIT_DATABASE_URL ? await PostgresAuditReader.connect(config.AUDIT_DATABASE_URL) : new FileAuditReader(config.AUDIT_DIR);
    } catch (err) {
      logger.warn({ err: { message: (err as Error).message } }, 'admin API: the audit store cannot be reached');
      throw new AdminProblem(503, 'the audit store cannot be reached; try again shortly');
    }
    try {
      return await fn(reader);
    } catch (err) {
      if (err instanceof AdminProblem || err instanceof DomainError) throw err;
      logger.warn({ err: { message: (err as Error).message } }, 'admin API: an audit store query failed');
      throw new AdminProblem(503, 'the audit store did not answer; try again shortly');
    } finally {
      await reader.close().catch(() => undefined);
    }
  }

  const api = Router();
  // The sign-in steps answer without credentials; everything after needs them.
  api.use(authRoutes({ ...auth, logger, clock, ...(link ? { oneTime: link.tokens } : {}) }));
  api.use(authenticate(auth));
  const json = jsonBody(config.BODY_LIMIT_BYTES);
  api.use(partnerRoutes(deps.partners, json));
  api.use(reportRoutes({ clock, logger, normalise: deps.normalise, withReader }));
  api.use(overviewRoutes({
    clock, partners: deps.partners, withReader, upstreams: () => deps.upstreams(), storeMode: () => deps.storeMode(), auditMode: () => deps.auditMode(),
    registryKind: () => deps.registryKind(), deadLetterCount: async () => (redis ? open().count() : undefined),
  }));
  api.use(deadLetterRoutes(deadLetters, logger));
  api.use(subscriptionRoutes(deps.partners, deps.subscriptions));
  api.use((_req: express.Request, _res: express.Response, next: express.NextFunction) => next(new AdminProblem(404, 'no such admin route')));
  api.use(problemHandler(logger));
  const router = Router();
  router.use(API_BASE, api);

  return {
    routes: [router],
    banner: (adminUrl) => [
      `verify-customer console: ${adminUrl}/admin/`,
      ...(link ? [`One-time login link (works once, from this machine): ${adminUrl}${API_BASE}/auth/link?token=${link.token}`] : []),
    ],
    close: async () => { await letters?.close(); },
  };
}
