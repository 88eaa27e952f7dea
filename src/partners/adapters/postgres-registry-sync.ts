import { Client, Pool } from 'pg';
import { Logger } from '../../observability/logger';
import { MemoryPartnerRegistry } from '../memory-partner-registry';
import { partnerOf } from '../registry/partner-record';
import { PartnerSecretCipher } from './partner-secret-cipher';
import { NOTIFY_CHANNEL, readSnapshot } from './postgres-partner-rows';

export type SyncState = 'unloaded' | 'database' | 'stale';

export interface RegistrySyncOptions {
  pool: Pool;
  /** A dedicated connection's settings for LISTEN (a pooled one would be handed back). */
  connectionString: string;
  connectTimeoutMs: number;
  cipher: PartnerSecretCipher;
  registry: MemoryPartnerRegistry;
  logger: Logger;
  /** PARTNERS_REFRESH_MS: the version check behind LISTEN/NOTIFY. */
  intervalMs: number;
  /** Work to finish before the first load (schema migration, the import at start); retried until it succeeds. */
  prepare: () => Promise<void>;
}

/**
 * Keeps the in-memory registry in step with the database (CONTRACT §12: within 2 s, no signal).
 * A NOTIFY on `partner_registry` (sent at commit by every change) triggers a reload at once;
 * every `intervalMs` the version row is compared too, which catches a change whose
 * notification was lost with a connection, and reconnects the listener. A reload reads one
 * snapshot and swaps the registry whole. While the database cannot be reached the last loaded
 * registry stays in force (`stale`, said in /readyz and the log); before any load there is
 * none (`unloaded`: every partner is refused, /readyz answers 503).
 */
export class PostgresRegistrySync {
  private stateNow: SyncState = 'unloaded';
  private version: string | undefined;
  private prepared = false;
  private listener: Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  private closed = false;
  private failing = false;

  constructor(private readonly o: RegistrySyncOptions) {}

  state(): SyncState {
    return this.stateNow;
  }

  /** The first attempt, awaited by the start; then the ticker keeps trying and checking. */
  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => { void this.refresh(); }, this.o.intervalMs);
    this.timer.unref();
  }

  /**
   * Checks the version and reloads when it moved; coalesced (a call during a run makes one
   * more run after it). `force`: reload whatever the version says.
   */
  refresh(force = false): Promise<void> {
    if (force) this.version = undefined;
    if (this.running) {
      // The run under way may have read the version before the caller's change: one more after it.
      this.next ??= this.running.then(() => {
        this.next = undefined;
        return this.closed ? undefined : this.refresh();
      });
      return this.next;
    }
    this.running = this.run().finally(() => { this.running = undefined; });
    return this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
    await this.listener?.end().catch(() => undefined);
    this.listener = undefined;
  }

  private async run(): Promise<void> {
    try {
      if (!this.prepared) {
        await this.o.prepare();
        this.prepared = true;
      }
      if (!this.listener) await this.listen();
      const { rows } = await this.o.pool.query<{ version: string }>('SELECT version::text AS version FROM registry_version');
      if (rows[0]?.version !== this.version) await this.load();
      if (this.failing) this.o.logger.info('partner registry database reachable again; registry in step');
      this.failing = false;
      this.stateNow = 'database';
    } catch (err) {
      const next: SyncState = this.version === undefined ? 'unloaded' : 'stale';
      // Told once per outage, not once per check.
      if (!this.failing) {
        this.o.logger.error({ err: (err as Error).message },
          next === 'stale' ? 'partner registry database unreachable; serving the registry last loaded' : 'partner registry not loaded: its database is unreachable; every partner is refused until it loads');
      }
      this.failing = true;
      this.stateNow = next;
    }
  }

  private async load(): Promise<void> {
    const loaded = await readSnapshot(this.o.pool, this.o.cipher);
    this.o.registry.replace(loaded.records.map(partnerOf));
    if (loaded.unreadable > 0) this.o.logger.error({ unreadable: loaded.unreadable }, 'partner secrets that PARTNER_SECRETS_KEY_FILE does not open were left out');
    this.o.logger.debug({ partners: loaded.records.length, version: loaded.version }, 'partner registry loaded');
    this.version = loaded.version;
  }

  private async listen(): Promise<void> {
    const client = new Client({ connectionString: this.o.connectionString, connectionTimeoutMillis: this.o.connectTimeoutMs, application_name: 'verify-customer-registry-listen' });
    const drop = () => {
      if (this.listener === client) this.listener = undefined;
      void client.end().catch(() => undefined);
    };
    client.on('error', drop);
    client.on('end', drop);
    client.on('notification', () => { void this.refresh(); });
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch (err) {
      drop();
      throw err;
    }
    this.listener = client;
  }
}
