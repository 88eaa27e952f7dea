import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

export interface PgMigrationsOptions {
  databaseUrl: string;
  /** The SQL migrations' folder. */
  dir: string;
  /** node-pg-migrate's bookkeeping table: one per schema, so schemas sharing a database migrate apart. */
  table: string;
  /** Names the connection in pg_stat_activity, and the schema in errors. */
  name: string;
  connectTimeoutMs: number;
  deadlineMs: number;
}

/**
 * Runs node-pg-migrate's pending `up` migrations. node-pg-migrate 9 is an ES module, and Jest's
 * module system cannot require() one; a worker thread loads it with Node's own loader, in the
 * service and in tests alike. Its advisory lock makes concurrent starts of several instances
 * wait for one another.
 *
 * A server that accepts connections and never answers must not hold a worker and a socket
 * forever: the connection must be made within `connectTimeoutMs`, and the whole migration,
 * lock wait included (another instance may be migrating), ends within `deadlineMs`; past it the
 * worker is terminated, which closes its socket.
 */
export function runPgMigrations(o: PgMigrationsOptions): Promise<string[]> {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const quiet = { debug() {}, info() {}, warn() {}, error() {} };
    import(workerData.module)
      .then((m) => m.runner({
        databaseUrl: { connectionString: workerData.url, connectionTimeoutMillis: workerData.connectTimeoutMs, application_name: workerData.appName },
        dir: workerData.dir, direction: 'up', count: Infinity,
        migrationsTable: workerData.table, checkOrder: true, advisoryLockMode: 'wait', logger: quiet,
      }))
      .then((ran) => parentPort.postMessage({ ok: true, ran: ran.map((m) => m.name) }),
        (err) => parentPort.postMessage({ ok: false, message: String((err && err.message) || err) }));`;
  const module = pathToFileURL(require.resolve('node-pg-migrate')).href;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, {
      eval: true,
      workerData: { module, url: o.databaseUrl, dir: o.dir, table: o.table, appName: `verify-customer-${o.name}-migrate`, connectTimeoutMs: o.connectTimeoutMs },
    });
    const deadline = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`${o.name} schema migration did not finish within ${o.deadlineMs} ms`));
    }, o.deadlineMs);
    deadline.unref();
    worker.once('message', (m: { ok: true; ran: string[] } | { ok: false; message: string }) => {
      clearTimeout(deadline);
      void worker.terminate();
      if (m.ok) resolve(m.ran);
      else reject(new Error(`${o.name} schema migration failed: ${m.message}`));
    });
    worker.once('error', (err: Error) => {
      clearTimeout(deadline);
      reject(err);
    });
  });
}
