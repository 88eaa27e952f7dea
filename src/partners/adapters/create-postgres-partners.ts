import { join } from 'node:path';
import { Pool } from 'pg';
import { PartnerSettings } from '../../config/partner-settings';
import { Clock } from '../../kernel/clock';
import { runPgMigrations } from '../../kernel/pg-migrations';
import { repoRoot } from '../../kernel/repo-paths';
import { Logger } from '../../observability/logger';
import { PartnerStore } from '../create-partners';
import { readPartnersFile } from '../file-partner-registry';
import { MemoryPartnerRegistry } from '../memory-partner-registry';
import { recordOf } from '../registry/partner-record';
import { createPartnerSecretCipher, loadPartnerSecretsKey } from './partner-secret-cipher';
import { PostgresPartnerStore } from './postgres-partner-store';
import { PostgresRegistrySync } from './postgres-registry-sync';

const CONNECT_TIMEOUT_MS = 2000;

export function registryMigrationsDir(): string {
  return join(repoRoot(), 'migrations', 'registry');
}

/** The registry schema (migrations/registry, its own table registry_migrations: it may share the audit's database). */
export function migrateRegistrySchema(databaseUrl: string, connectTimeoutMs = CONNECT_TIMEOUT_MS): Promise<string[]> {
  return runPgMigrations({ databaseUrl, dir: registryMigrationsDir(), table: 'registry_migrations', name: 'registry', connectTimeoutMs, deadlineMs: Math.max(30_000, 10 * connectTimeoutMs) });
}

export interface PostgresPartners extends PartnerStore {
  admin: PostgresPartnerStore;
}

/**
 * The registry in PostgreSQL (CONTRACT §12): schema migrated, PARTNERS_FILE imported once into
 * an empty registry, loaded, then kept in step. A database unreachable at start does not stop
 * the start: the sync keeps trying (docs/decisions.md, "Partner registry in PostgreSQL").
 */
export async function createPostgresPartners(deps: { clock: Clock; logger: Logger },
  config: PartnerSettings & { DATABASE_URL: string; NODE_ENV: string }): Promise<PostgresPartners> {
  const { clock, logger } = deps;
  if (!config.PARTNER_SECRETS_KEY_FILE) logger.warn('PARTNER_SECRETS_KEY_FILE unset: partner secrets in the database are encrypted under a public development key');
  const cipher = createPartnerSecretCipher(loadPartnerSecretsKey(config.PARTNER_SECRETS_KEY_FILE));
  const pool = new Pool({ connectionString: config.DATABASE_URL, max: 4, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, application_name: 'verify-customer-registry' });
  pool.on('error', (err) => logger.warn({ err: err.message }, 'partner registry database connection lost'));
  const registry = new MemoryPartnerRegistry();
  const refresh: { now: () => Promise<void> } = { now: () => Promise.resolve() };
  const admin = new PostgresPartnerStore({ pool, cipher, clock, changed: () => refresh.now() });
  // Read before the first load: a bad PARTNERS_FILE stops the start, as without a database.
  const seed = config.PARTNERS_FILE ? readPartnersFile(config.PARTNERS_FILE).map(recordOf) : [];
  const sync = new PostgresRegistrySync({
    pool, connectionString: config.DATABASE_URL, connectTimeoutMs: CONNECT_TIMEOUT_MS, cipher, registry, logger, intervalMs: config.PARTNERS_REFRESH_MS,
    prepare: async () => {
      await migrateRegistrySchema(config.DATABASE_URL);
      if (seed.length === 0) return;
      const { imported } = await admin.importIfEmpty(seed, { type: 'system', name: 'PARTNERS_FILE import at start' });
      if (imported.length > 0) logger.info({ partners: imported.length }, 'PARTNERS_FILE imported into the empty database registry');
    },
  });
  refresh.now = () => sync.refresh();
  await sync.start();
  const s = sync;
  return {
    registry, admin,
    reload: () => { void s.refresh(true); },
    state: () => s.state(),
    close: async () => {
      await s.close();
      await pool.end();
    },
  };
}

/** The database registry's management plane alone, for the CLI: schema migrated, no registry kept in memory. */
export async function openPostgresPartnerStore(databaseUrl: string, keyFile: string | undefined, clock: Clock): Promise<{ admin: PostgresPartnerStore; close(): Promise<void> }> {
  const cipher = createPartnerSecretCipher(loadPartnerSecretsKey(keyFile));
  await migrateRegistrySchema(databaseUrl);
  const pool = new Pool({ connectionString: databaseUrl, max: 1, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, application_name: 'verify-customer-cli' });
  // The running instances learn of the change by the NOTIFY each change sends: nothing to reload here.
  const admin = new PostgresPartnerStore({ pool, cipher, clock, changed: () => Promise.resolve() });
  return { admin, close: () => pool.end() };
}
