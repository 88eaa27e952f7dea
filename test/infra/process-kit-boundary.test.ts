import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(e.name) ? [path] : [];
  });
}

describe('the process kit', () => {
  it('when the bench, the soak and the test support are read, then only the process kit starts processes or reads /proc', () => {
    const offenders: string[] = [];
    for (const dir of ['bench', 'scripts', 'test/support']) {
      for (const file of sourceFiles(join(ROOT, dir))) {
        // The ChildProcess type may be named; spawning, /proc, free ports and column padding may not.
        const text = readFileSync(file, 'utf8').replace(/^import \{ ChildProcess \} from 'node:child_process';$/m, '');
        if (/node:child_process|\/proc\/|function freePort\(|pad(Start|End)\(widths/.test(text)) offenders.push(relative(ROOT, file));
      }
    }
    expect(offenders).toEqual([]);
  });
});
