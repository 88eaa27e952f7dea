import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DESCRIPTIONS, LAYOUT_BEGIN, LAYOUT_END, layoutProblems, readmeLayout, renderLayout, treeEntries, withLayout,
} from '../../scripts/code-layout';

const ROOT = join(__dirname, '..', '..');

describe('README layout section (scripts/code-layout.ts)', () => {
  it('when README.md is compared with the tree, then its layout section is exactly the one generated from it', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    // On failure: describe the new folder in scripts/code-layout.ts, then `npm run layout -- --write`.
    expect(layoutProblems(treeEntries(ROOT))).toEqual([]);
    expect(readmeLayout(readme)).toBe(renderLayout(treeEntries(ROOT)));
  });

  it('when a folder is added under src/ or at the top, then it is listed; build output named in .gitignore is not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'layout-'));
    try {
      for (const d of ['src/sim-swap', 'src/camara', 'bench', 'dist', '.ci']) mkdirSync(join(dir, d), { recursive: true });
      writeFileSync(join(dir, 'src', 'server.ts'), '');
      writeFileSync(join(dir, 'src', 'notes.md'), '');
      writeFileSync(join(dir, '.gitignore'), 'node_modules/\ndist/\n*.cpuprofile\n');
      expect(treeEntries(dir).sort()).toEqual(['bench/', 'src/camara/', 'src/server.ts', 'src/sim-swap/']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when a folder has no description or a description has no folder, then both are named and nothing is rendered', () => {
    const entries = [...Object.keys(DESCRIPTIONS).filter((e) => e !== 'src/kyc-tenure/'), 'src/quality-on-demand/'];
    expect(layoutProblems(entries)).toEqual([
      'src/quality-on-demand/ has no description in scripts/code-layout.ts',
      'src/kyc-tenure/ is described in scripts/code-layout.ts but not in the tree',
    ]);
    expect(() => renderLayout(entries)).toThrow(/src\/quality-on-demand\//);
  });

  it('when the section is rewritten, then only the text between the markers changes', () => {
    const readme = `# x\n${LAYOUT_BEGIN}\nold\n${LAYOUT_END}\n## Tests\n`;
    const out = withLayout(readme, '```\nnew\n```');
    expect(out).toBe(`# x\n${LAYOUT_BEGIN}\n\`\`\`\nnew\n\`\`\`\n${LAYOUT_END}\n## Tests\n`);
    expect(readmeLayout(out)).toBe('```\nnew\n```');
    expect(readmeLayout('# no markers\n')).toBeUndefined();
    expect(() => withLayout('# no markers\n', 'x')).toThrow(/markers/);
  });
});
