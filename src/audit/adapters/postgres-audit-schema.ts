import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Pool, PoolClient } from 'pg';
import { repoRoot } from '../../kernel/repo-paths';
import { monthBounds, monthOf } from './audit-record-codec';

const DAY_MS = 86_400_000;
export const AUDIT_TABLE = 'audit_records';
const PARTITION = /^audit_records_y(\d{4})m(\d{2})$/;

export function auditMigrationsDir(): string {
  return join(repoRoot(), 'migrations', 'audit');
}

/**
 * node-pg-migrate 9 is an ES module, and Jest's module system cannot require() one; a worker
 * thread loads it with Node's own loader, in the service and in tests alike. The migrations
 * are SQL files in migrations/audit; node-pg-migrate's advisory lock makes concurrent starts
 * of several instances wait for one another.
 *
 * A server that accepts connections and never answers must not hold a worker and a socket
 * forever: the connection must be made within `connectTimeoutMs`, and the whole migration,
 * lock wait included (another instance may be migrating), ends within `deadlineMs`; past it the
 * worker is terminated, which closes its socket.
 */
export function migrateAuditSchema(databaseUrl: string, connectTimeoutMs: number, deadlineMs = Math.max(30_000, 10 * connectTimeoutMs)): Promise<string[]> {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const quiet = { debug() {}, info() {}, warn() {}, error() {} };
    import(workerData.module)
      .then((m) => m.runner({
        databaseUrl: { connectionString: workerData.url, connectionTimeoutMillis: workerData.connectTimeoutMs, application_name: 'verify-customer-audit-migrate' },
        dir: workerData.dir, direction: 'up', count: Infinity,
        migrationsTable: 'audit_migrations', checkOrder: true, advisoryLockMode: 'wait', logger: quiet,
      }))
      .then((ran) => parentPort.postMessage({ ok: true, ran: ran.map((m) => m.name) }),
        (err) => parentPort.postMessage({ ok: false, message: String((err && err.message) || err) }));`;
  const module = pathToFileURL(require.resolve('node-pg-migrate')).href;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: { module, url: databaseUrl, dir: auditMigrationsDir(), connectTimeoutMs } });
    const deadline = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`audit schema migration did not finish within ${deadlineMs} ms`));
    }, deadlineMs);
    deadline.unref();
    worker.once('message', (m: { ok: true; ran: string[] } | { ok: false; message: string }) => {
      clearTimeout(deadline);
      void worker.terminate();
      if (m.ok) resolve(m.ran);
      else reject(new Error(`audit schema migration failed: ${m.message}`));
    });
    worker.once('error', (err: Error) => {
      clearTimeout(deadline);
      reject(err);
    });
  });
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
