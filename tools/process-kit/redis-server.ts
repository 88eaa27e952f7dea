import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StartedProcess, startProcess } from './child-process';
import { freePort, waitForPort } from './net-wait';

export interface RedisProcess {
  port: number;
  url: string;
  /** The running redis-server's process id (for its CPU time); undefined while stopped. */
  pid(): number | undefined;
  stop(): Promise<void>;
  /** Starts it again on the same port (after stop). */
  restart(): Promise<void>;
}

/** A throwaway redis-server of our own, on a free port, nothing persisted. */
export async function startRedis(extraArgs: string[] = []): Promise<RedisProcess> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'vc-redis-'));
  let running: StartedProcess | undefined;
  const launch = async () => {
    // A throwaway Redis must never keep our process alive (Jest would hang after the run),
    // and never outlive it either: unref'd, and killed when our process exits.
    running = await startProcess('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...extraArgs],
      { env: process.env, unref: true, output: 'ignore' });
    await waitForPort(port, 'redis-server');
  };
  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    pid: () => (running && running.proc.exitCode === null && running.proc.signalCode === null ? running.pid : undefined),
    stop: async () => {
      await running?.stop(0);
    },
    restart: launch,
  };
}
