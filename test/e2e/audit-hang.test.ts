import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { postJson } from '../support/harness';
import { eventually } from '../support/audit-db';
import { startServiceProcess } from '../support/service-process';
import { DEMO, signedQuery, txnId } from '../support/signing';
import { until } from '../support/until';

/*
 * A PostgreSQL that accepts connections and never answers (a hung server, a black-holing
 * proxy): the service must still start listening within a bound, answer and spool, and its
 * retries must not pile up sockets or worker threads.
 */

/** A TCP server that accepts and never writes a byte; counts the connections open now and ever. */
async function silentServer(): Promise<{ port: number; open: () => number; accepted: () => number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((s) => {
    accepted++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
    // Reads and discards what the client sends: a paused socket would never see the client close it.
    s.resume();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    open: () => sockets.size,
    accepted: () => accepted,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

function threads(pid: number): number {
  return Number(/^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
}

async function metric(url: string, re: RegExp): Promise<number> {
  const m = re.exec(await (await fetch(`${url}/metrics`)).text());
  return m ? Number(m[1]) : NaN;
}

describe('audit store that accepts connections and never answers', () => {
  it('when AUDIT_DATABASE_URL points at a silent server, then the service listens within a bound, answers, spools, and its retries leak no sockets or threads', async () => {
    const pg = await silentServer();
    const started = Date.now();
    const svc = await startServiceProcess({
      AUDIT_DATABASE_URL: `postgres://audit:pw-7c1e9a@127.0.0.1:${pg.port}/audit`,
      AUDIT_WRITE_TIMEOUT_MS: '500', AUDIT_RETRY_MS: '300', AUDIT_FLUSH_MS: '50', LOG_LEVEL: 'info',
    });
    try {
      const startMs = Date.now() - started;
      // The start deadline is max(5 s, AUDIT_WRITE_TIMEOUT_MS); the rest is process start-up.
      expect(startMs).toBeLessThan(12_000);
      expect(pg.accepted()).toBeGreaterThan(0);
      const ready = await (await fetch(`${svc.url}/readyz`)).json() as { audit?: string };
      expect(ready.audit).toBe('degraded');
      for (let i = 0; i < 5; i++) {
        const r = await postJson(`${svc.url}/eai/verify_customer/query/kyc?${signedQuery(DEMO)}`, { txn_id: txnId('h'), msisdn: '255712000001' });
        expect(r.status).toBe(200);
      }
      await eventually(async () => expect(await metric(svc.url, /^verify_audit_records_total\{outcome="spooled"\} (\d+)/m)).toBe(5), 10_000);

      // Over many retry periods (AUDIT_RETRY_MS 300 ms, each retry a connection attempt and a migration):
      // the sockets held open to the silent server and the process's threads stay bounded.
      const acceptedBefore = pg.accepted();
      const threadsBefore = threads(svc.proc.pid!);
      let maxOpen = 0;
      let maxThreads = 0;
      // The window is counted in retries, not guessed in seconds: it ends once twenty more connection
      // attempts reached the silent server, sampling sockets and threads every 100 ms meanwhile.
      await until(() => {
        maxOpen = Math.max(maxOpen, pg.open());
        maxThreads = Math.max(maxThreads, threads(svc.proc.pid!));
        return pg.accepted() - acceptedBefore >= 20;
      }, 'twenty connection attempts at the silent server', 30_000, 100);
      // The pool's four connections plus one migration's.
      expect(maxOpen).toBeLessThanOrEqual(5);
      // At most one migration worker alive at a time (a worker thread brings a few of its own).
      expect(maxThreads - threadsBefore).toBeLessThanOrEqual(8);
      expect(svc.output()).not.toContain('pw-7c1e9a');
    } finally {
      svc.proc.kill('SIGKILL');
      await svc.exited;
      await pg.close();
    }
  }, 60_000);

  it('when the audit CLI is pointed at a silent server, then it gives up within its connect timeout with exit 1, the password unsaid', async () => {
    const pg = await silentServer();
    const started = Date.now();
    try {
      const cli = join(__dirname, '../../dist/src/cli/main.js');
      const err = await promisify(execFile)(process.execPath, [cli, 'usage', '--month', '2026-11'], {
        env: { PATH: process.env.PATH, AUDIT_DATABASE_URL: `postgres://audit:pw-7c1e9a@127.0.0.1:${pg.port}/audit` },
      }).then(() => undefined, (e: unknown) => e as { code: number; stderr: string });
      expect(err?.code).toBe(1);
      expect(err?.stderr).toMatch(/timeout/);
      expect(err?.stderr).not.toContain('pw-7c1e9a');
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      await pg.close();
    }
  }, 40_000);
});
