import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/**
 * Child processes of the bench and where they run. With two or more cores and `taskset`
 * available, the bench pins itself (and so, by inheritance, redis-server, the simulator and
 * the load generator) to CPU 1 and the server under test (service, B0, B1) to CPU 0: the
 * server gets one core of its own, as a single Node process uses one core for JavaScript.
 */
export interface Placement {
  pinned: boolean;
  serverCpu?: number;
  restCpu?: number;
  note: string;
}

export function pinPlacement(wanted = true): Placement {
  if (!wanted) return { pinned: false, note: 'not pinned (--no-pin): the OS places server, load generator, redis-server and simulator' };
  const hasTaskset = spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0;
  if (!hasTaskset || cpus().length < 2) {
    return { pinned: false, note: `not pinned (${hasTaskset ? `${cpus().length} CPU` : 'no taskset'}): numbers include load-generator interference` };
  }
  spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  return { pinned: true, serverCpu: 0, restCpu: 1, note: 'server under test on CPU 0; load generator, redis-server and simulator on CPU 1' };
}

/** Starts `node args` on the server CPU when pinned; stdout piped, stderr passed through. */
export function spawnServer(placement: Placement, nodeArgs: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const [cmd, args] = placement.pinned
    ? ['taskset', ['-c', String(placement.serverCpu), process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs];
  return spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
}

/** Starts `node args` wherever the bench itself runs (CPU 1 when pinned). */
export function spawnHelper(nodeArgs: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, nodeArgs, { env, stdio: ['ignore', 'pipe', 'inherit'] });
}

/** Resolves with the first stdout line matching re. */
export function waitForLine(proc: ChildProcess, re: RegExp, timeoutMs = 15_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`no line matching ${re} within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      for (const line of buf.split('\n')) {
        const m = line.match(re);
        if (m) {
          clearTimeout(timer);
          proc.stdout?.off('data', onData);
          proc.stdout?.resume();
          resolve(m);
          return;
        }
      }
    };
    proc.stdout?.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`process exited (${code}) before printing ${re}`)));
  });
}

/** Polls url until it answers 200. */
export async function waitForHttp(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGTERM, then SIGKILL if it has not exited in time. */
export async function stopProcess(proc: ChildProcess | undefined, graceMs = 10_000): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
    proc.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    proc.kill('SIGTERM');
  });
}

/** Resident set size of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat (clock ticks of 10 ms). */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Samples a process's RSS every 100 ms; stop() returns the highest seen since start(). */
export class RssSampler {
  private max = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly pid: number) {}

  start(): void {
    this.max = rssMb(this.pid) ?? 0;
    this.timer = setInterval(() => {
      this.max = Math.max(this.max, rssMb(this.pid) ?? 0);
    }, 100);
  }

  stop(): number {
    clearInterval(this.timer);
    this.max = Math.max(this.max, rssMb(this.pid) ?? 0);
    return this.max;
  }
}
