import { Pool, PoolClient } from 'pg';
import { OPERATIONS, Operation } from '../operation';
import { ChangeEntry } from '../ports/partner-admin';
import { PartnerRecord, SecretRecord } from '../registry/partner-record';
import { PartnerSecretCipher } from './partner-secret-cipher';
import { PartnerKind, SignatureScheme } from '../partners';
import { RateLimit } from '../partners';

/** The registry tables (migrations/registry) read and written as PartnerRecords. */

export const NOTIFY_CHANNEL = 'partner_registry';

interface PartnerRow {
  name: string; api_key: string; kind: PartnerKind; operations: string[]; enabled: boolean; signature: SignatureScheme;
  rate_limit: RateLimit | null; purpose: string | null;
}
interface SecretRow { id: string; partner: string; sealed: string; created_at: Date; valid_until: Date | null }

export interface LoadedRegistry {
  version: string;
  records: PartnerRecord[];
  /** Secrets that would not open (another key, a row copied between partners): left out, counted. */
  unreadable: number;
}

/** Every partner and secret as of one snapshot, in a read-only REPEATABLE READ transaction of its own. */
export async function readSnapshot(pool: Pool, cipher: PartnerSecretCipher): Promise<LoadedRegistry> {
  const db = await pool.connect();
  try {
    await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const loaded = await readRegistry(db, cipher);
    await db.query('COMMIT');
    return loaded;
  } catch (err) {
    // Never hand a connection back inside a transaction: the next user would read this snapshot.
    await db.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    db.release();
  }
}

/** Every partner and secret as of one snapshot (call inside a REPEATABLE READ transaction). */
export async function readRegistry(db: PoolClient, cipher: PartnerSecretCipher): Promise<LoadedRegistry> {
  const v = await db.query<{ version: string }>('SELECT version::text AS version FROM registry_version');
  const partners = await db.query<PartnerRow>('SELECT name, api_key, kind, operations, enabled, signature, rate_limit, purpose FROM registry_partners ORDER BY name');
  const secrets = await db.query<SecretRow>('SELECT id, partner, sealed, created_at, valid_until FROM registry_secrets ORDER BY created_at DESC, id');
  const byPartner = new Map<string, SecretRecord[]>();
  let unreadable = 0;
  for (const s of secrets.rows) {
    let secret: string;
    try {
      secret = cipher.open(s.sealed, s.partner, s.id);
    } catch {
      unreadable++;
      continue;
    }
    const list = byPartner.get(s.partner) ?? [];
    list.push({ id: s.id, secret, createdAt: s.created_at.toISOString(), validUntil: s.valid_until?.toISOString() ?? null });
    byPartner.set(s.partner, list);
  }
  const records = partners.rows.map((p): PartnerRecord => ({
    name: p.name, kind: p.kind, apiKey: p.api_key,
    operations: p.operations.filter((o): o is Operation => (OPERATIONS as readonly string[]).includes(o)),
    enabled: p.enabled, signature: p.signature, rateLimit: p.rate_limit, purpose: p.purpose, secrets: byPartner.get(p.name) ?? [],
  }));
  return { version: v.rows[0]?.version ?? '0', records, unreadable };
}

/** Writes one partner's new state (insert, or update and its secrets' difference); `before` undefined: a new partner. */
export async function writeRecord(db: PoolClient, cipher: PartnerSecretCipher, before: PartnerRecord | undefined, after: PartnerRecord): Promise<void> {
  const fields = [after.name, after.apiKey, after.kind, after.operations, after.enabled, after.signature,
    after.rateLimit === null ? null : JSON.stringify(after.rateLimit), after.purpose];
  if (!before) {
    await db.query(`INSERT INTO registry_partners (name, api_key, kind, operations, enabled, signature, rate_limit, purpose)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, fields);
  } else {
    await db.query(`UPDATE registry_partners SET api_key = $2, kind = $3, operations = $4, enabled = $5, signature = $6,
      rate_limit = $7, purpose = $8, updated_at = now() WHERE name = $1`, fields);
    await db.query('DELETE FROM registry_secrets WHERE partner = $1 AND NOT (id = ANY($2::text[]))', [after.name, after.secrets.map((s) => s.id)]);
  }
  for (const s of after.secrets) {
    if (before?.secrets.some((b) => b.id === s.id)) {
      await db.query('UPDATE registry_secrets SET valid_until = $3 WHERE partner = $1 AND id = $2', [after.name, s.id, s.validUntil]);
    } else {
      await db.query('INSERT INTO registry_secrets (id, partner, sealed, created_at, valid_until) VALUES ($1, $2, $3, $4, $5)',
        [s.id, after.name, cipher.seal(s.secret, after.name, s.id), s.createdAt, s.validUntil]);
    }
  }
}

export async function writeChange(db: PoolClient, e: ChangeEntry): Promise<void> {
  await db.query(`INSERT INTO registry_changes (id, at, actor_type, actor_name, action, partner, before, after)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
  [e.id, e.at, e.actor.type, e.actor.name, e.action, e.partner, e.before === null ? null : JSON.stringify(e.before), e.after === null ? null : JSON.stringify(e.after)]);
}

/** Moves the version every instance compares against, and tells the listening ones at commit. */
export async function bumpVersion(db: PoolClient): Promise<void> {
  const { rows } = await db.query<{ version: string }>('UPDATE registry_version SET version = version + 1 RETURNING version::text AS version');
  await db.query('SELECT pg_notify($1, $2)', [NOTIFY_CHANNEL, rows[0].version]);
}

interface ChangeRow {
  cursor: string; id: string; at: Date; actor_type: ChangeEntry['actor']['type']; actor_name: string; action: ChangeEntry['action'];
  partner: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null;
}

/** Newest first, `limit + 1` rows (the extra one says another page exists). */
export async function readChanges(db: { query: PoolClient['query'] }, partner: string | undefined, beforeSeq: string | undefined, limit: number): Promise<{ seq: string; entry: ChangeEntry }[]> {
  // The text form is named apart: ORDER BY seq must sort the bigint, not its digits.
  const { rows } = await db.query<ChangeRow>(`SELECT seq::text AS cursor, id, at, actor_type, actor_name, action, partner, before, after FROM registry_changes
    WHERE ($1::text IS NULL OR partner = $1) AND ($2::bigint IS NULL OR seq < $2) ORDER BY seq DESC LIMIT $3`, [partner ?? null, beforeSeq ?? null, limit + 1]);
  return rows.map((r) => ({
    seq: r.cursor,
    entry: { id: r.id, at: r.at.toISOString(), actor: { type: r.actor_type, name: r.actor_name }, action: r.action, partner: r.partner, before: r.before, after: r.after },
  }));
}
