import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RESOLVER_TYPES_PATH as GENERATED } from '../../codegen';
import { repoRoot } from '../../src/kernel/repo-paths';

const root = repoRoot();

interface Run {
  status: number | null;
  output: string;
}

/** A copy of what the codegen scripts read and write, so a test can break it without touching the repository. */
function copyOfRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'graphql-codegen-'));
  for (const f of ['package.json', 'codegen.ts', 'schema.graphql', GENERATED]) cpSync(join(root, f), join(dir, f));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

function npmRun(dir: string, script: string): Run {
  const r = spawnSync('npm', ['run', '--silent', script], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

function edit(dir: string, file: string, change: (text: string) => string): void {
  const path = join(dir, file);
  const before = readFileSync(path, 'utf8');
  const after = change(before);
  expect(after).not.toBe(before);
  writeFileSync(path, after);
}

describe('the generated GraphQL resolver types (npm run graphql:check, part of npm test)', () => {
  let dir: string;
  beforeEach(() => { dir = copyOfRepo(); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('when the types are as committed, then they pass the check', () => {
    expect(npmRun(dir, 'graphql:check')).toMatchObject({ status: 0 });
  });

  it('when schema.graphql gains a field and the types are not regenerated, then they fail the check', () => {
    edit(dir, 'schema.graphql', (s) => s.replace('  isValid: Boolean!\n', '  isValid: Boolean!\n  isBlocked: Boolean!\n'));
    const r = npmRun(dir, 'graphql:check');
    expect(r.status).not.toBe(0);
    expect(r.output).toContain(GENERATED);
  });

  it('when the generated file was edited by hand, then it fails the check', () => {
    edit(dir, GENERATED, (s) => s.replace('isPrepaid: Scalars', 'isPrepaid?: Scalars'));
    expect(npmRun(dir, 'graphql:check').status).not.toBe(0);
  });

  it('when npm run graphql:generate has rewritten them, then they pass again, with the new field in the Kyc type', () => {
    edit(dir, 'schema.graphql', (s) => s.replace('  isValid: Boolean!\n', '  isValid: Boolean!\n  isBlocked: Boolean!\n'));
    expect(npmRun(dir, 'graphql:generate')).toMatchObject({ status: 0 });
    expect(readFileSync(join(dir, GENERATED), 'utf8')).toMatch(/export type Kyc = \{[^}]*isBlocked: Scalars\['Boolean'\]\['output'\];/);
    expect(npmRun(dir, 'graphql:check')).toMatchObject({ status: 0 });
  });
});
