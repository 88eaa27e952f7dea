import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PartnerSettings } from '../config/partner-settings';
import { Clock } from '../kernel/clock';
import { AuthFailureThrottle } from './auth-failure-throttle';
import { Logger } from '../observability/logger';
import { AuthFailureMetrics } from './ports/auth-failure-metrics';
import { defaultPartnersPath } from '../kernel/repo-paths';
import { FilePartnerStore } from './adapters/file-partner-store';
import { createPostgresPartners } from './adapters/create-postgres-partners';
import { Authenticator } from './authenticator';
import { FilePartnerRegistry } from './file-partner-registry';
import { MemoryPartnerRegistry } from './memory-partner-registry';
import { PartnerAdmin } from './ports/partner-admin';

/** Where the registry stands: `file`, `database` (in step with it), `stale` (serving the last load: the database is unreachable), `unloaded` (never loaded yet). */
export type RegistryState = 'file' | 'database' | 'stale' | 'unloaded';

export interface Partners {
  /** The registry in force: the request path's synchronous lookups. */
  registry: MemoryPartnerRegistry;
  /** The management plane over the same store (CONTRACT §12). */
  admin: PartnerAdmin;
  /** Checks the legacy REST and GraphQL signatures. */
  authenticator: Authenticator;
  /** Failed-secret counting shared by the signatures and the OAuth token endpoint. */
  throttle: AuthFailureThrottle;
  /** SIGHUP: re-reads PARTNERS_FILE, or the database registry now; keeps the registry in force on failure. */
  reload: () => void;
  /** For /readyz and the console's overview. */
  state: () => RegistryState;
  close(): Promise<void>;
}

/** The partner registry (PARTNERS_FILE, or PostgreSQL with DATABASE_URL), its management plane, and the signed-request checks. */
export async function createPartners(deps: { clock: Clock; logger: Logger; metrics: AuthFailureMetrics }, config: PartnerSettings & { NODE_ENV: string; AUDIT_DIR: string }): Promise<Partners> {
  const { clock, logger, metrics } = deps;
  const store = config.DATABASE_URL ? await createPostgresPartners({ clock, logger }, { ...config, DATABASE_URL: config.DATABASE_URL }) : fileStore(clock, logger, config);
  const { registry } = store;
  const throttle = new AuthFailureThrottle({
    clock, pairLimit: config.AUTH_FAIL_LIMIT, addressLimit: config.AUTH_FAIL_ADDRESS_LIMIT, windowS: config.AUTH_FAIL_WINDOW_S,
  });
  const authenticator = new Authenticator({ registry, clock, maxSkewS: config.SIG_MAX_SKEW_S, metrics, throttle });
  authenticator.tick();
  const ticker = setInterval(() => authenticator.tick(), 1000);
  ticker.unref();
  return {
    registry, admin: store.admin, authenticator, throttle, reload: store.reload, state: () => store.state(),
    close: async () => {
      clearInterval(ticker);
      await store.close();
    },
  };
}

export interface PartnerStore {
  registry: MemoryPartnerRegistry;
  admin: PartnerAdmin;
  reload: () => void;
  state(): RegistryState;
  close(): Promise<void>;
}

/**
 * The registry file the management plane writes. PARTNERS_FILE when set; otherwise, outside
 * production (the embedded default, `npm start`), a working copy of the demo registry beside the
 * audit files (AUDIT_DIR, `./var`), made once from the shipped file, so a newcomer can create,
 * rotate and disable partners from the console without editing the repository's fixture. In
 * production PARTNERS_FILE or DATABASE_URL is required (config), so no copy is ever made there.
 */
function registryFile(config: PartnerSettings & { NODE_ENV: string; AUDIT_DIR: string }, logger: Logger): string | undefined {
  if (config.PARTNERS_FILE !== undefined || config.NODE_ENV === 'production') return config.PARTNERS_FILE;
  const copy = join(config.AUDIT_DIR, 'partners.json');
  if (!existsSync(copy)) {
    mkdirSync(config.AUDIT_DIR, { recursive: true });
    copyFileSync(defaultPartnersPath(), copy);
    logger.info({ partnersFile: copy }, 'demo partners copied to a working registry file (PARTNERS_FILE unset)');
  }
  return copy;
}

function fileStore(clock: Clock, logger: Logger, config: PartnerSettings & { NODE_ENV: string; AUDIT_DIR: string }): PartnerStore {
  const file = registryFile(config, logger);
  const registry = new FilePartnerRegistry(file ?? defaultPartnersPath());
  const reload = () => {
    try {
      const n = registry.reload();
      logger.info({ partners: n }, 'partners reloaded');
    } catch (err) {
      logger.error({ err: (err as Error).message }, 'partners reload failed; keeping the registry in force');
    }
  };
  const admin = new FilePartnerStore({ file, readPath: registry.path, clock, reload: () => { registry.reload(); } });
  return { registry, admin, reload, state: () => 'file', close: () => Promise.resolve() };
}
