import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/*
 * What a process costs, from Linux's /proc: resident memory and CPU time. /proc/<pid>/stat
 * counts CPU in clock ticks, whose length is the kernel's USER_HZ: asked once of
 * `getconf CLK_TCK`, never assumed.
 */

let ticksPerSecond: number | undefined;

/** USER_HZ, the unit of utime and stime in /proc/<pid>/stat. */
export function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
    const n = Number(r.stdout?.trim());
    if (r.status !== 0 || !Number.isInteger(n) || n <= 0) throw new Error('getconf CLK_TCK did not answer: cannot turn /proc CPU ticks into seconds');
    ticksPerSecond = n;
  }
  return ticksPerSecond;
}

/** CPU seconds (user + system) from the text of /proc/<pid>/stat. */
export function cpuSecondsFromStat(stat: string, ticks: number): number {
  // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error('unreadable /proc stat line');
  return (utime + stime) / ticks;
}

/** CPU seconds a process has used; 0 when it is gone (or this is not Linux). */
export function cpuSeconds(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0;
  }
  return cpuSecondsFromStat(stat, clockTicksPerSecond());
}

/** Resident set size of a process in MB; undefined when it is gone (or this is not Linux). */
export function rssMb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The highest resident set size a process has had (VmHWM), in MB; undefined as rssMb. */
export function peakRssMb(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
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
