import { Pool, PoolClient } from 'pg';
import { BadRequestError, DomainError, RegistryUnavailableError } from '../../errors/domain-errors';
import { Clock } from '../../kernel/clock';
import { Actor, ChangeAction, ChangePage, NewPartner, PartnerAdmin, PartnerPatch, PartnerView, RotatedSecret } from '../ports/partner-admin';
import { changeEntry, pageLimit } from '../registry/change-log';
import { createdRecord, patchedRecord, recordNamed, revokedRecord, rotatedRecord } from '../registry/partner-changes';
import { PartnerRecord, viewOf } from '../registry/partner-record';
import { PartnerSecretCipher } from './partner-secret-cipher';
import { bumpVersion, readChanges, readRegistry, readSnapshot, writeChange, writeRecord } from './postgres-partner-rows';

type Change = { before?: PartnerRecord; after?: PartnerRecord; action: ChangeAction };

export interface PostgresPartnerStoreOptions {
  pool: Pool;
  cipher: PartnerSecretCipher;
  clock: Clock;
  /** Called after each committed change: this instance loads it before the call returns. */
  changed: () => Promise<void>;
}

/**
 * The management plane over the PostgreSQL registry (CONTRACT §12). A change is one transaction
 * that locks the version row (changes from every instance are serialised), reads the registry,
 * applies the shared rules (registry/partner-changes.ts), writes the partner, its sealed
 * secrets and its change log entry, and moves the version with a NOTIFY, delivered at commit.
 */
export class PostgresPartnerStore implements PartnerAdmin {
  constructor(private readonly opts: PostgresPartnerStoreOptions) {}

  async list(): Promise<PartnerView[]> {
    const now = this.opts.clock.nowMs();
    return (await this.snapshot()).map((r) => viewOf(r, now));
  }

  async get(name: string): Promise<PartnerView | undefined> {
    const r = (await this.snapshot()).find((p) => p.name === name);
    return r && viewOf(r, this.opts.clock.nowMs());
  }

  async create(input: NewPartner, actor: Actor): Promise<{ partner: PartnerView; secret: string }> {
    const { after } = await this.change(actor, (records, now) => {
      const created = createdRecord(input, records, now);
      return { after: created, action: 'partner.create' };
    });
    return { partner: viewOf(after!, this.opts.clock.nowMs()), secret: after!.secrets[0].secret };
  }

  async update(name: string, patch: PartnerPatch, actor: Actor): Promise<PartnerView> {
    const { after } = await this.change(actor, (records) => {
      const before = recordNamed(records, name);
      return { before, after: patchedRecord(before, patch), action: 'partner.update' };
    });
    return viewOf(after!, this.opts.clock.nowMs());
  }

  async rotateSecret(name: string, graceSeconds: number | undefined, actor: Actor): Promise<RotatedSecret> {
    let rotated: RotatedSecret | undefined;
    await this.change(actor, (records, now) => {
      const before = recordNamed(records, name);
      const r = rotatedRecord(before, graceSeconds, now);
      rotated = r.rotated;
      return { before, after: r.record, action: 'secret.rotate' };
    });
    return rotated!;
  }

  async revokeSecret(name: string, secretId: string, actor: Actor): Promise<void> {
    await this.change(actor, (records, now) => {
      const before = recordNamed(records, name);
      return { before, after: revokedRecord(before, secretId, now), action: 'secret.revoke' };
    });
  }

  /** Adds the partners whose name and api key are free (the others are skipped), in one transaction. */
  async importRecords(incoming: readonly PartnerRecord[], actor: Actor): Promise<{ imported: string[]; skipped: string[] }> {
    const result = await this.importInto(incoming, actor, false);
    if (result.imported.length > 0) await this.opts.changed();
    return result;
  }

  /**
   * The import of PARTNERS_FILE at start: nothing unless the registry holds no partner (several
   * instances may attempt it at once; the version row's lock lets one through). The first load
   * follows it, so no reload is asked for.
   */
  importIfEmpty(incoming: readonly PartnerRecord[], actor: Actor): Promise<{ imported: string[]; skipped: string[] }> {
    return this.importInto(incoming, actor, true);
  }

  private async importInto(incoming: readonly PartnerRecord[], actor: Actor, onlyIfEmpty: boolean): Promise<{ imported: string[]; skipped: string[] }> {
    const result = { imported: [] as string[], skipped: [] as string[] };
    await this.transaction(async (db, records, now) => {
      if (onlyIfEmpty && records.length > 0) return false;
      const taken = [...records];
      for (const p of incoming) {
        if (taken.some((r) => r.name === p.name || r.apiKey === p.apiKey)) {
          result.skipped.push(p.name);
          continue;
        }
        await writeRecord(db, this.opts.cipher, undefined, p);
        await writeChange(db, changeEntry(actor, 'partner.import', undefined, p, now));
        taken.push(p);
        result.imported.push(p.name);
      }
      return result.imported.length > 0;
    });
    return result;
  }

  async changes(query: { partner?: string; cursor?: string; limit: number }): Promise<ChangePage> {
    if (query.cursor !== undefined && !/^[1-9][0-9]{0,17}$/.test(query.cursor)) throw new BadRequestError('cursor: unknown');
    const limit = pageLimit(query.limit);
    const rows = await this.guard(() => readChanges(this.opts.pool, query.partner, query.cursor, limit));
    const items = rows.slice(0, limit);
    return rows.length > limit ? { items: items.map((r) => r.entry), nextCursor: items[items.length - 1].seq } : { items: items.map((r) => r.entry) };
  }

  private async snapshot(): Promise<PartnerRecord[]> {
    return this.guard(async () => (await readSnapshot(this.opts.pool, this.opts.cipher)).records);
  }

  private async change(actor: Actor, decide: (records: PartnerRecord[], nowMs: number) => Change): Promise<Change> {
    let made: Change | undefined;
    await this.transaction(async (db, records, now) => {
      made = decide(records, now);
      await writeRecord(db, this.opts.cipher, made.before, made.after!);
      await writeChange(db, changeEntry(actor, made.action, made.before, made.after, now));
      return true;
    });
    await this.opts.changed();
    return made!;
  }

  /** One serialised change: `work` returns whether it wrote anything (then the version moves). */
  private async transaction(work: (db: PoolClient, records: PartnerRecord[], nowMs: number) => Promise<boolean>): Promise<void> {
    await this.guard(async () => {
      const db = await this.opts.pool.connect();
      try {
        await db.query('BEGIN');
        await db.query('SELECT version FROM registry_version FOR UPDATE');
        const { records } = await readRegistry(db, this.opts.cipher);
        const w = await work(db, records, this.opts.clock.nowMs());
        if (w) await bumpVersion(db);
        await db.query('COMMIT');
      } catch (err) {
        await db.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        db.release();
      }
    });
  }

  /** The rules' own errors pass; a database failure becomes 503-worthy, its details for the log only. */
  private async guard<T>(f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (err) {
      if (err instanceof DomainError) throw err;
      throw new RegistryUnavailableError('the partner registry database cannot be reached', undefined, { cause: err });
    }
  }
}
