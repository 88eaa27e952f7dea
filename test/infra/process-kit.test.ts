import { execFileSync } from 'node:child_process';
import { clockTicksPerSecond, cpuSeconds, cpuSecondsFromStat, rssMb } from '../../tools/process-kit/proc-stats';
import { formatTable } from '../../tools/process-kit/text-table';

describe('the process kit', () => {
  it("when CPU time is read from /proc, then the kernel's real tick length is used, not an assumed 100 Hz", () => {
    // A stat line of a process named "a b) c" (the name may hold spaces and parentheses).
    const stat = '4242 (a b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 750 250 0 0 20 0 1 0 100 1000 10';
    expect(cpuSecondsFromStat(stat, 250)).toBe(4);
    expect(cpuSecondsFromStat(stat, 100)).toBe(10);
    expect(clockTicksPerSecond()).toBe(Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()));
  });

  it("when a process's CPU time is measured, then it matches what the process itself counts", () => {
    const burnUntil = Date.now() + 300;
    let x = 0;
    while (Date.now() < burnUntil) x += Math.sqrt(x + 1);
    const own = process.cpuUsage();
    const ownS = (own.user + own.system) / 1e6;
    const fromProc = cpuSeconds(process.pid);
    expect(x).toBeGreaterThan(0);
    expect(Math.abs(fromProc - ownS)).toBeLessThan(0.05 + 2 / clockTicksPerSecond());
    expect(rssMb(process.pid)).toBeGreaterThan(10);
    expect(cpuSeconds(2 ** 22 + 1)).toBe(0); // beyond pid_max: gone
  });

  it('when a table is drawn, Markdown or plain, then text is left-aligned and numbers right-aligned', () => {
    expect(formatTable(['name', 'n'], [['a', '10'], ['bbb', '2']], { markdown: true })).toBe(
      '| name |  n |\n|------|---:|\n| a    | 10 |\n| bbb  |  2 |');
    expect(formatTable(['n', 'what'], [['10', 'x'], ['2', 'yy']], { leftColumns: [1] })).toBe(' n  what\n10  x   \n 2  yy  ');
  });
});
