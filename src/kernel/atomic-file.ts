import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces `path` with `data` so that a reader sees the old file or the new one, never a part,
 * and a crash leaves no copy behind: a temp file beside it (same file system, so the rename is
 * atomic) created with mode 0600, written, fsynced, renamed over the target, then the directory
 * fsynced so the rename itself survives a power cut. On any failure the temp file is removed.
 * The result is always mode 0600: it holds secrets.
 */
export function writeFileAtomic(path: string, data: string): void {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx', 0o600);
    fchmodSync(fd, 0o600); // the umask may have taken bits away, never added: set exactly 0600
    const bytes = Buffer.from(data, 'utf8');
    for (let off = 0; off < bytes.length;) off += writeSync(fd, bytes, off);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (err) {
    try {
      if (fd !== undefined) closeSync(fd);
    } finally {
      rmSync(tmp, { force: true });
    }
    throw err;
  }
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}
