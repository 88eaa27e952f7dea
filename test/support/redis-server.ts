import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A port the OS says is free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface RedisProcess {
  port: number;
  url: string;
  stop(): Promise<void>;
  /** Starts it again on the same port (after stop). */
  restart(): Promise<void>;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of live) p.kill('SIGKILL');
});

/** A throwaway redis-server of the test's own, on a free port, nothing persisted. */
export async function startRedis(extraArgs: string[] = []): Promise<RedisProcess> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'vc-redis-'));
  let proc: ChildProcess | undefined;
  const launch = async () => {
    proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...extraArgs], { stdio: 'ignore' });
    // A test's Redis must never keep the test process alive (Jest would hang after the run),
    // and never outlive it either: unref it, and kill whatever is left when the process exits.
    proc.unref();
    const started = proc;
    live.add(started);
    started.once('exit', () => live.delete(started));
    await waitForPort(port);
  };
  await launch();
  const stop = async () => {
    const p = proc;
    if (!p || p.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      p.once('exit', () => resolve());
      p.kill('SIGKILL');
    });
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      await stop();
    },
    restart: launch,
  };
}

async function waitForPort(port: number, timeoutMs = 5000): Promise<void> {
  const { connect } = await import('node:net');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => { s.destroy(); resolve(true); });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
