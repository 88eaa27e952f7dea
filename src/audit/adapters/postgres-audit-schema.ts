import { join } from 'node:path';
import { Pool, PoolClient } from 'pg';
import { runPgMigrations } from '../../kernel/pg-migrations';
import { repoRoot } from '../../kernel/repo-paths';
import { monthBounds, monthOf } from './audit-record-codec';

const DAY_MS = 86_400_000;
export const AUDIT_TABLE = 'audit_records';
const PARTITION = /^audit_records_y(\d{4})m(\d{2})$/;

export function auditMigrationsDir(): string {
  return join(repoRoot(), 'migrations', 'audit');
}

/** The audit schema's migrations (migrations/audit, table audit_migrations): see runPgMigrations. */
export function migrateAuditSchema(databaseUrl: string, connectTimeoutMs: number, deadlineMs = Math.max(30_000, 10 * connectTimeoutMs)): Promise<string[]> {
  return runPgMigrations({ databaseUrl, dir: auditMigrationsDir(), table: 'audit_migrations', name: 'audit', connectTimeoutMs, deadlineMs });
}

export function partitionName(month: string): string {
  return `${AUDIT_TABLE}_y${month.slice(0, 4)}m${month.slice(5, 7)}`;
}

/** Creates a month's partition unless it exists; safe when several instances race to create it. */
export async function ensurePartition(db: Pool | PoolClient, month: string): Promise<void> {
  const { startMs, endMs } = monthBounds(month);
  try {
    await db.query(`CREATE TABLE IF NOT EXISTS ${partitionName(month)} PARTITION OF ${AUDIT_TABLE}
      FOR VALUES FROM ('${new Date(startMs).toISOString()}') TO ('${new Date(endMs).toISOString()}')`);
  } catch (err) {
    // duplicate_table / unique_violation: another instance created it between our check and create.
    const code = (err as { code?: string }).code;
    if (code !== '42P07' && code !== '23505') throw err;
  }
}

/** The months that have a partition, oldest first. */
export async function listPartitions(db: Pool): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(`SELECT c.relname AS name FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
    WHERE p.relname = $1 ORDER BY c.relname`, [AUDIT_TABLE]);
  return rows.flatMap(({ name }) => {
    const m = PARTITION.exec(name);
    return m ? [`${m[1]}-${m[2]}`] : [];
  });
}

/**
 * Retention (AUDIT_RETENTION_DAYS) by whole partitions: a month is dropped once all of it is
 * older than the cutoff, so a record is kept at least the retention and at most a month more.
 * Also creates this month's and the next two months' partitions ahead of traffic.
 */
export async function maintainPartitions(db: Pool, nowMs: number, retentionDays: number, ahead = 2): Promise<{ dropped: string[]; created: string[] }> {
  const cutoff = nowMs - retentionDays * DAY_MS;
  const dropped: string[] = [];
  for (const month of await listPartitions(db)) {
    if (monthBounds(month).endMs <= cutoff) {
      await db.query(`DROP TABLE IF EXISTS ${partitionName(month)}`);
      dropped.push(month);
    }
  }
  const created: string[] = [];
  let m = monthOf(nowMs);
  for (let i = 0; i <= ahead; i++) {
    await ensurePartition(db, m);
    created.push(m);
    m = monthOf(monthBounds(m).endMs);
  }
  return { dropped, created };
}
