import { join } from 'node:path';
import { staleBlocks, writeBlocks } from './camara-api-docs';

/**
 * npm run docs:apis: rewrites the CAMARA API tables of README.md and docs/ from the declarations
 * (src/partners/camara-apis.ts); `--check` writes nothing and exits 1 when one is stale.
 */
function main(): number {
  const root = join(__dirname, '..', '..', '..');
  if (process.argv[2] === '--check') {
    const stale = staleBlocks(root);
    for (const line of stale) process.stderr.write(`${line}\n`);
    return stale.length === 0 ? 0 : 1;
  }
  const changed = writeBlocks(root);
  process.stdout.write(changed.length === 0 ? 'the CAMARA API tables are up to date\n' : `rewrote ${changed.join(', ')}\n`);
  return 0;
}

try {
  process.exitCode = main();
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exitCode = 2;
}
