import { ChildProcess, StdioOptions, execFile, spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';

/*
 * How the bench, the soak and the tests start and stop the processes they drive (the built
 * service, the simulator, redis-server, load generators, the CLI): one implementation, so
 * every caller waits for readiness, collects output and cleans up the same way.
 */

export interface StartOptions {
  env: NodeJS.ProcessEnv;
  /** Resolve once the output (stdout and stderr) matches this; its match is returned. */
  ready?: RegExp;
  /** Names the process in errors ("service did not start: ..."). */
  what?: string;
  timeoutMs?: number;
  /** Run pinned to this CPU (taskset); the caller checks taskset exists. */
  cpu?: number;
  /** Keep only the last this-many characters of output (a long run's logs); all of it by default. */
  keepChars?: number;
  /**
   * collect (default): stdout and stderr kept for output() and `ready`; stdout: stderr passed
   * through to ours; ignore: neither; { appendTo }: both appended to that log file.
   */
  output?: 'collect' | 'stdout' | 'ignore' | { appendTo: string };
  /** Let our process exit while this one runs (it is still killed when ours exits). */
  unref?: boolean;
}

export interface StartedProcess {
  proc: ChildProcess;
  pid: number;
  /** The `ready` match, or null when no pattern was given. */
  match: RegExpExecArray | null;
  /** What it has printed so far (the tail, with keepChars). */
  output(): string;
  exited: Promise<number | null>;
  /** SIGTERM, SIGKILL after graceMs; resolves with the exit code (null when killed by a signal). */
  stop(graceMs?: number): Promise<number | null>;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of live) p.kill('SIGKILL');
});

export type SpawnOptions = Pick<StartOptions, 'env' | 'cpu' | 'output' | 'unref'>;

/** Spawns `command args` (pinned with cpu, stdio after output); it is killed if our process exits first. */
export function spawnProcess(command: string, args: readonly string[], opts: SpawnOptions): ChildProcess {
  const [cmd, argv] = opts.cpu === undefined ? [command, [...args]] : ['taskset', ['-c', String(opts.cpu), command, ...args]];
  const output = opts.output ?? 'collect';
  if (typeof output === 'object') {
    const fd = openSync(output.appendTo, 'a');
    try {
      return track(spawn(cmd, argv, { env: opts.env, stdio: ['ignore', fd, fd] }), opts);
    } finally {
      closeSync(fd);
    }
  }
  const stdio: StdioOptions = output === 'ignore' ? 'ignore' : ['ignore', 'pipe', output === 'stdout' ? 'inherit' : 'pipe'];
  return track(spawn(cmd, argv, { env: opts.env, stdio }), opts);
}

function track(proc: ChildProcess, opts: SpawnOptions): ChildProcess {
  live.add(proc);
  proc.once('exit', () => live.delete(proc));
  proc.on('error', () => undefined); // reported by startProcess (a binary that could not start never emits 'exit')
  if (opts.unref) proc.unref();
  return proc;
}

/** Starts `command args`; with `ready`, resolves only once the output matches (or rejects with the output). */
export async function startProcess(command: string, args: readonly string[], opts: StartOptions): Promise<StartedProcess> {
  const proc = spawnProcess(command, args, opts);
  let spawnError = '';
  const exited = new Promise<number | null>((resolve) => {
    proc.once('exit', (code) => resolve(code));
    proc.once('error', (err) => {
      if (proc.pid !== undefined) return;
      spawnError = `${err.message}\n`;
      live.delete(proc);
      resolve(null);
    });
  });
  let out = '';
  let match: RegExpExecArray | null = null;
  let onMatch: (() => void) | undefined;
  const keep = (d: Buffer) => {
    out += d.toString('utf8');
    if (opts.keepChars !== undefined && out.length > opts.keepChars) out = out.slice(-opts.keepChars);
    if (opts.ready && !match) {
      match = opts.ready.exec(out);
      if (match) onMatch?.();
    }
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const stop = (graceMs = 10_000) => stopProcess(proc, graceMs);
  if (opts.ready) {
    const what = opts.what ?? command;
    const timeoutMs = opts.timeoutMs ?? 15_000;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        proc.kill('SIGKILL');
        reject(new Error(`${what} did not start within ${timeoutMs} ms:\n${out}`));
      }, timeoutMs);
      onMatch = () => {
        clearTimeout(timer);
        resolve();
      };
      if (match) onMatch();
      void exited.then((code) => {
        clearTimeout(timer);
        if (!match) reject(new Error(`${what} exited (${code}) before it was ready:\n${spawnError}${out}`));
      });
    });
  }
  if (proc.pid === undefined) throw new Error(`${opts.what ?? command} could not be started: ${spawnError || 'no pid'}`);
  return { proc, pid: proc.pid, match, output: () => out, exited, stop };
}

/** Starts `node args` with the Node that runs us. */
export function startNode(args: readonly string[], opts: StartOptions): Promise<StartedProcess> {
  return startProcess(process.execPath, args, opts);
}

/** SIGTERM, then SIGKILL if it has not exited within graceMs (at once with 0); the exit code (null after a signal). */
export async function stopProcess(proc: ChildProcess | undefined, graceMs = 10_000): Promise<number | null> {
  if (!proc) return null;
  if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
  return new Promise<number | null>((resolve) => {
    const timer = graceMs > 0 ? setTimeout(() => proc.kill('SIGKILL'), graceMs) : undefined;
    proc.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    proc.kill(graceMs > 0 ? 'SIGTERM' : 'SIGKILL');
  });
}

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to the end and resolves with its exit code and output, whatever the code. */
export function runCommand(command: string, args: readonly string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(command, [...args], { env: opts.env, timeout: opts.timeoutMs ?? 20_000, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** True when `command args` runs and exits 0 (a probe such as `redis-server --version`). */
export function commandSucceeds(command: string, args: readonly string[] = []): boolean {
  return spawnSync(command, [...args], { stdio: 'ignore' }).status === 0;
}
