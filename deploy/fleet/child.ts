import { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { spawnProcess, stopProcess } from '../../tools/process-kit/child-process';

export { freePort, waitForPort } from '../../tools/process-kit/net-wait';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * One process of the fleet that can be stopped, killed and started again on the same settings
 * (a rolling restart, a Redis node back after a kill). Its output goes to a log file, never to
 * the launcher's terminal, and it is unref'd, so a test runner is never kept alive by it.
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
    const proc = spawnProcess(this.command, this.args, { env: this.env, output: { appendTo: this.logFile }, unref: true });
    this.exit = new Promise((resolve) => {
      proc.once('exit', (code) => resolve(code));
      proc.once('error', () => resolve(null));
    });
    this.proc = proc;
  }

  get pid(): number | undefined {
    return this.running ? this.proc?.pid : undefined;
  }

  get running(): boolean {
    return this.proc !== undefined && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** Resolves with the exit code (null after a signal) once the process has ended. */
  exited(): Promise<number | null> {
    return this.exit;
  }

  /** SIGTERM, then SIGKILL after graceMs; resolves with the exit code when the process is gone. */
  stop(graceMs = 5000): Promise<number | null> {
    return this.running ? stopProcess(this.proc, graceMs) : this.exit;
  }

  async kill(): Promise<void> {
    if (this.running) await stopProcess(this.proc, 0);
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
