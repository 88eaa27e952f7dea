import { ChildProcess, spawn } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';

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

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Resolves once something accepts TCP connections on the port, or rejects after timeoutMs. */
export async function waitForPort(port: number, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => { s.destroy(); resolve(true); });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${what} did not listen on port ${port} within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** Every fleet process, so none outlives the launcher, whatever way it exits. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of live) p.kill('SIGKILL');
});

/**
 * One process of the fleet: its output goes to a log file (never to the launcher's terminal),
 * and it is unref'd, so a test runner is never kept alive by it.
 */
export class FleetChild {
  private proc: ChildProcess | undefined;
  private exit: Promise<number | null> = Promise.resolve(null);

  constructor(
    readonly name: string,
    private readonly command: string,
    private readonly args: readonly string[],
    private readonly env: NodeJS.ProcessEnv,
    readonly logFile: string,
  ) {}

  start(): void {
    if (this.running) throw new Error(`${this.name} is already running`);
    const fd = openSync(this.logFile, 'a');
    try {
      const proc = spawn(this.command, this.args, { env: this.env, stdio: ['ignore', fd, fd] });
      proc.unref();
      live.add(proc);
      this.exit = new Promise((resolve) => {
        proc.once('exit', (code, signal) => {
          live.delete(proc);
          resolve(code ?? (signal ? -1 : null));
        });
        proc.once('error', () => {
          live.delete(proc);
          resolve(-1);
        });
      });
      this.proc = proc;
    } finally {
      closeSync(fd);
    }
  }

  get running(): boolean {
    return this.proc !== undefined && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /** Resolves with the exit code (-1 for a signal) once the process has ended. */
  exited(): Promise<number | null> {
    return this.exit;
  }

  signal(sig: NodeJS.Signals): void {
    if (this.running) this.proc?.kill(sig);
  }

  /** SIGTERM, then SIGKILL after graceMs; resolves when the process is gone. */
  async stop(graceMs = 5000): Promise<number | null> {
    if (!this.running) return this.exit;
    this.signal('SIGTERM');
    const timer = setTimeout(() => this.signal('SIGKILL'), graceMs);
    try {
      return await this.exit;
    } finally {
      clearTimeout(timer);
    }
  }

  async kill(): Promise<void> {
    this.signal('SIGKILL');
    await this.exit;
  }

  /** The last lines of the log, for error messages. */
  tail(lines = 20): string {
    try {
      return readFileSync(this.logFile, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }
}
