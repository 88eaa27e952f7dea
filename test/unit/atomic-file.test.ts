import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../../src/kernel/atomic-file';

const freshDir = () => mkdtempSync(join(tmpdir(), 'vc-atomic-'));

describe('writing a secrets file atomically', () => {
  it('when a file is replaced, then it is replaced whole and left 0600, whatever it was', () => {
    const dir = freshDir();
    const file = join(dir, 'partners.json');
    writeFileSync(file, 'old', { mode: 0o644 });
    writeFileAtomic(file, 'new content');
    expect(readFileSync(file, 'utf8')).toBe('new content');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['partners.json']);
  });

  it('when the file is missing, then it is created 0600 even under a permissive umask', () => {
    const dir = freshDir();
    const file = join(dir, 'partners.json');
    const umask = process.umask(0);
    try {
      writeFileAtomic(file, 'x');
    } finally {
      process.umask(umask);
    }
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('when the rename fails (the target is a directory), then it throws and leaves no temp file', () => {
    const dir = freshDir();
    const target = join(dir, 'partners.json');
    mkdirSync(target);
    expect(() => writeFileAtomic(target, 'secret=0123456789abcdef')).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(readdirSync(dir)).toEqual(['partners.json']);
    expect(statSync(target).isDirectory()).toBe(true);
  });

  it('when the directory is missing, then it throws and creates nothing', () => {
    const dir = freshDir();
    expect(() => writeFileAtomic(join(dir, 'nope', 'partners.json'), 'x')).toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
