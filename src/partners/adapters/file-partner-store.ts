import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '../../kernel/atomic-file';
import { BadRequestError, ConflictError } from '../../errors/domain-errors';
import { Clock } from '../../kernel/clock';
import { parsePartners, readPartnersJson } from '../file-partner-registry';
import { PRIMARY_SECRET_ID } from '../partners';
import { Actor, ChangeAction, ChangeEntry, ChangePage, NewPartner, PartnerAdmin, PartnerPatch, PartnerView, RotatedSecret } from '../ports/partner-admin';
import { changeEntry, pageLimit } from '../registry/change-log';
import { createdRecord, patchedRecord, recordNamed, revokedRecord, rotatedRecord } from '../registry/partner-changes';
import { PartnerRecord, recordOf, viewOf } from '../registry/partner-record';

export interface FilePartnerStoreOptions {
  /** PARTNERS_FILE; undefined: the demo registry, which is read-only (its secrets are public). */
  file: string | undefined;
  /** The registry file as the service reads it (the demo file when `file` is undefined). */
  readPath: string;
  clock: Clock;
  /** Re-reads the file into the registry in force. */
  reload: () => void;
  env?: NodeJS.ProcessEnv;
}

type Mutation = (records: PartnerRecord[], nowMs: number) => { records: PartnerRecord[]; before?: PartnerRecord; after?: PartnerRecord; action: ChangeAction };

/**
 * The management plane over PARTNERS_FILE (the embedded default, CONTRACT §12): each change is
 * validated by the service's own reader, written atomically (a reader sees the old file or the
 * new one), logged as one JSON line in `<file>.changes.jsonl` beside it (0600, secrets never),
 * and loaded into the registry in force before the call returns. Changes in this process are
 * serialised; the file is re-read for each, so a `partners add` run in between is not lost.
 */
export class FilePartnerStore implements PartnerAdmin {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly opts: FilePartnerStoreOptions) {
    this.env = opts.env ?? process.env;
  }

  get changesPath(): string | undefined {
    return this.opts.file === undefined ? undefined : `${this.opts.file}.changes.jsonl`;
  }

  list(): Promise<PartnerView[]> {
    return settled(() => {
      const now = this.opts.clock.nowMs();
      return this.read().map((r) => viewOf(r, now));
    });
  }

  get(name: string): Promise<PartnerView | undefined> {
    return settled(() => {
      const r = this.read().find((p) => p.name === name);
      return r && viewOf(r, this.opts.clock.nowMs());
    });
  }

  async create(input: NewPartner, actor: Actor): Promise<{ partner: PartnerView; secret: string }> {
    const after = await this.mutate(actor, (records, now) => {
      const created = createdRecord(input, records, now, PRIMARY_SECRET_ID);
      return { records: [...records, created], after: created, action: 'partner.create' };
    });
    return { partner: viewOf(after, this.opts.clock.nowMs()), secret: after.secrets[0].secret };
  }

  async update(name: string, patch: PartnerPatch, actor: Actor): Promise<PartnerView> {
    const after = await this.mutate(actor, (records) => {
      const before = recordNamed(records, name);
      const next = patchedRecord(before, patch);
      return { records: records.map((r) => (r === before ? next : r)), before, after: next, action: 'partner.update' };
    });
    return viewOf(after, this.opts.clock.nowMs());
  }

  async rotateSecret(name: string, graceSeconds: number | undefined, actor: Actor): Promise<RotatedSecret> {
    let rotated: RotatedSecret | undefined;
    await this.mutate(actor, (records, now) => {
      const before = recordNamed(records, name);
      const r = rotatedRecord(before, graceSeconds, now);
      rotated = r.rotated;
      return { records: records.map((p) => (p === before ? r.record : p)), before, after: r.record, action: 'secret.rotate' };
    });
    return rotated!;
  }

  async revokeSecret(name: string, secretId: string, actor: Actor): Promise<void> {
    await this.mutate(actor, (records, now) => {
      const before = recordNamed(records, name);
      const next = revokedRecord(before, secretId, now);
      return { records: records.map((p) => (p === before ? next : p)), before, after: next, action: 'secret.revoke' };
    });
  }

  /** Adds the partners whose name and api key are free; the others are skipped. */
  async importRecords(incoming: readonly PartnerRecord[], actor: Actor): Promise<{ imported: string[]; skipped: string[] }> {
    const result = { imported: [] as string[], skipped: [] as string[] };
    for (const p of incoming) {
      await this.mutate(actor, (records) => {
        if (records.some((r) => r.name === p.name || r.apiKey === p.apiKey)) {
          result.skipped.push(p.name);
          return { records, action: 'partner.import' };
        }
        result.imported.push(p.name);
        return { records: [...records, p], after: p, action: 'partner.import' };
      });
    }
    return result;
  }

  changes(query: { partner?: string; cursor?: string; limit: number }): Promise<ChangePage> {
    return settled(() => this.changePage(query));
  }

  private changePage(query: { partner?: string; cursor?: string; limit: number }): ChangePage {
    const path = this.changesPath;
    if (!path || !existsSync(path)) return { items: [] };
    const all = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as ChangeEntry).reverse();
    const mine = query.partner === undefined ? all : all.filter((e) => e.partner === query.partner);
    let start = 0;
    if (query.cursor !== undefined) {
      const i = mine.findIndex((e) => e.id === query.cursor);
      if (i < 0) throw new BadRequestError('cursor: unknown');
      start = i + 1;
    }
    const limit = pageLimit(query.limit);
    const items = mine.slice(start, start + limit);
    return start + limit < mine.length ? { items, nextCursor: items[items.length - 1].id } : { items };
  }

  /** The file's partners as records, each secret given by a variable keeping that variable's name. */
  private read(): PartnerRecord[] {
    const json = readPartnersJson(this.opts.readPath);
    const records = parsePartners(json, this.opts.readPath, this.env).map(recordOf);
    const raw = (json as { partners: Record<string, unknown>[] }).partners;
    records.forEach((r, i) => {
      const entry = raw[i];
      const listed = Array.isArray(entry.secrets) ? (entry.secrets as { id: string; secretEnv?: string }[]) : [{ id: PRIMARY_SECRET_ID, secretEnv: entry.secretEnv as string | undefined }];
      for (const s of r.secrets) {
        const env = listed.find((l) => l.id === s.id)?.secretEnv;
        if (env !== undefined) s.secretEnv = env;
      }
    });
    return records;
  }

  /** Resolves to the changed partner (its record after, or before when it went). */
  private mutate(actor: Actor, change: Mutation): Promise<PartnerRecord> {
    const run = (): PartnerRecord => {
      const file = this.opts.file;
      if (file === undefined) throw new ConflictError('the demo registry is read-only: set PARTNERS_FILE (or DATABASE_URL) to manage partners');
      const now = this.opts.clock.nowMs();
      const { records, before, after, action } = change(existsSync(file) ? this.read() : [], now);
      const changed = after ?? before;
      if (!changed) return undefined as unknown as PartnerRecord; // nothing to write (an import skipping a partner)
      const doc = { partners: records.map(entryOf) };
      parsePartners(doc, file, this.env); // never write what the service would refuse to read
      writeFileAtomic(file, `${JSON.stringify(doc, null, 2)}\n`);
      appendFileSync(`${file}.changes.jsonl`, `${JSON.stringify(changeEntry(actor, action, before, after, now))}\n`, { mode: 0o600 });
      this.opts.reload();
      return changed;
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/** f's result, or its exception, as a promise (the port's callers await; none expects a throw). */
function settled<T>(f: () => T): Promise<T> {
  return new Promise((resolve) => resolve(f()));
}

/** A record as a file entry: the first format (`secret`/`secretEnv`) while it holds its one first secret. */
function entryOf(r: PartnerRecord): Record<string, unknown> {
  const e: Record<string, unknown> = { name: r.name, apiKey: r.apiKey };
  if (r.kind !== 'partner') e.kind = r.kind;
  const [only, ...more] = r.secrets;
  if (only && more.length === 0 && only.id === PRIMARY_SECRET_ID && only.validUntil === null) {
    if (only.secretEnv !== undefined) e.secretEnv = only.secretEnv;
    else e.secret = only.secret;
  } else {
    e.secrets = r.secrets.map((s) => ({
      id: s.id, ...(s.secretEnv !== undefined ? { secretEnv: s.secretEnv } : { secret: s.secret }), createdAt: s.createdAt, validUntil: s.validUntil,
    }));
  }
  Object.assign(e, { operations: r.operations, enabled: r.enabled, signature: r.signature });
  if (r.rateLimit) e.rateLimit = r.rateLimit;
  if (r.purpose !== null) e.purpose = r.purpose;
  return e;
}
