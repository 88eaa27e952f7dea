import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');
const ESLINT = join(ROOT, 'node_modules/eslint/bin/eslint.js');

/**
 * Lints one file planted in a feature folder with the project's own config (`npm run lint`'s),
 * then removes it. The file must exist on disk: the type-aware rules read it through tsconfig.
 */
function lintPlanted(folder: string, source: string): { status: number | null; output: string } {
  const file = join(ROOT, 'src', folder, `planted-boundary-${process.pid}.ts`);
  writeFileSync(file, source);
  try {
    const run = spawnSync(process.execPath, [ESLINT, '--max-warnings', '0', file], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    return { status: run.status, output: run.stdout + run.stderr };
  } finally {
    rmSync(file, { force: true });
  }
}

describe('the module map in lint (docs/architecture.md, "May import")', () => {
  it('when a feature imports another feature, then the lint fails on that import', () => {
    const run = lintPlanted('sim-swap', "import { KycMatchService } from '../kyc-match/kyc-match-service';\n\nexport type Planted = KycMatchService;\n");
    expect(run.output).toMatch(/feature may not import feature .*boundaries\/dependencies/);
    expect(run.status).toBe(1);
  });

  it('when a feature imports a kit its row allows, then the same planted file lints clean (the control)', () => {
    const run = lintPlanted('sim-swap', "import { maskMsisdn } from '../kernel/msisdn';\n\nexport const planted = maskMsisdn;\n");
    expect(run.output).not.toMatch(/error/);
    expect(run.status).toBe(0);
  });

  it('when a shared kit imports a feature, then the lint fails on that import', () => {
    const run = lintPlanted('camara', "import { SimSwapService } from '../sim-swap/sim-swap-service';\n\nexport type Planted = SimSwapService;\n");
    expect(run.output).toMatch(/camara may not import feature .*boundaries\/dependencies/);
    expect(run.status).toBe(1);
  });
});
