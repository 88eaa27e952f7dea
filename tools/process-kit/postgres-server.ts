import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './net-wait';

/** A throwaway PostgreSQL cluster of the test's own: initdb in a temp dir, a free port, trust auth on loopback. */
export interface PostgresProcess {
  port: number;
  url: string;
  /** Stops the server (fast shutdown); the data stays, so start() brings the same database back. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** One query on a fresh connection. */
  query<R extends object = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Stops the server and deletes its files. */
  destroy(): Promise<void>;
}

const INSTALL_HINT = 'PostgreSQL server binaries (initdb, pg_ctl) are not installed: the audit tests start their own PostgreSQL.\n' +
  'Install them with: apt-get update && apt-get install -y postgresql (Debian/Ubuntu put them in /usr/lib/postgresql/<version>/bin), then run the tests again.';

/** The newest /usr/lib/postgresql/<version>/bin holding initdb, or PG_BIN when set. */
export function postgresBinDir(): string {
  if (process.env.PG_BIN && existsSync(join(process.env.PG_BIN, 'initdb'))) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error(INSTALL_HINT);
  return join(root, versions[0], 'bin');
}

/** initdb refuses to run as root: as root, the cluster belongs to the `postgres` user the package creates. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    return { uid, gid };
  } catch {
    throw new Error('running as root and there is no "postgres" user to own the test cluster (the postgresql package creates it)');
  }
}

const live = new Map<string, () => void>();
process.once('exit', () => {
  for (const stop of live.values()) stop();
});

export async function startPostgres(): Promise<PostgresProcess> {
  const bin = postgresBinDir();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'vc-pg-'));
  const data = join(dir, 'data');
  const user = runAs();
  if (user) chownSync(dir, user.uid, user.gid);
  const run = (cmd: string, args: string[]) => {
    const r = spawnSync(join(bin, cmd), args, { ...user, cwd: dir, encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) {
      const log = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8').slice(-2000) : '';
      throw new Error(`${cmd} failed (${r.status}): ${r.stderr}${r.stdout}\n${log}`);
    }
  };
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = async () => run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  const stopNow = (mode: string) => spawnSync(join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop'], { ...user, cwd: dir, stdio: 'ignore' });
  await start();
  live.set(dir, () => stopNow('immediate'));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    port,
    url,
    start,
    stop: async () => { stopNow('fast'); },
    query: async <R extends object>(sql: string, params: unknown[] = []) => {
      const c = new Client({ connectionString: url });
      await c.connect();
      try {
        return (await c.query<R>(sql, params)).rows;
      } finally {
        await c.end();
      }
    },
    destroy: async () => {
      stopNow('immediate');
      live.delete(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
