import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readmeLayout, renderLayout, treeEntries, withLayout } from './code-layout';

/**
 * npm run layout: prints README's layout section as the tree gives it; `--write` puts it into
 * README.md; `--check` exits 1 when README.md disagrees with the tree.
 */
function main(): number {
  const root = join(__dirname, '..', '..', '..');
  const block = renderLayout(treeEntries(root));
  const readmePath = join(root, 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const mode = process.argv[2];
  if (mode === '--write') {
    writeFileSync(readmePath, withLayout(readme, block));
    return 0;
  }
  if (mode === '--check') {
    if (readmeLayout(readme) === block) return 0;
    process.stderr.write('README.md\'s layout section differs from the tree: run npm run layout -- --write\n');
    return 1;
  }
  process.stdout.write(`${block}\n`);
  return 0;
}

try {
  process.exitCode = main();
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exitCode = 2;
}
