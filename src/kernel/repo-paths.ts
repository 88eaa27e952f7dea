import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root, found from this file whether it runs from src/ (ts-jest) or dist/src/. */
export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('repository root not found');
    dir = up;
  }
  return dir;
}

export function defaultPartnersPath(): string {
  return join(repoRoot(), 'fixtures', 'demo-partners.json');
}
