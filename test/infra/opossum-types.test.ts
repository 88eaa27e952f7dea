import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import CircuitBreaker from 'opossum';
import ts from 'typescript';

const ROOT = join(__dirname, '../..');
const DECLARATION = join(ROOT, 'types/opossum/index.d.ts');

function compilerOptions(): ts.CompilerOptions {
  const file = join(ROOT, 'tsconfig.json');
  const config: unknown = ts.readConfigFile(file, (p) => ts.sys.readFile(p)).config;
  return ts.parseJsonConfigFileContent(config, ts.sys, ROOT).options;
}

/** Names declared in the class and in the Options interface of our declaration. */
function declared(): { members: { name: string; method: boolean }[]; options: string[] } {
  const source = ts.createSourceFile(DECLARATION, readFileSync(DECLARATION, 'utf8'), ts.ScriptTarget.Latest, true);
  const members: { name: string; method: boolean }[] = [];
  const options: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isClassDeclaration(node)) {
      for (const m of node.members) {
        if (m.name && ts.isIdentifier(m.name) && m.name.text !== 'on') members.push({ name: m.name.text, method: ts.isMethodDeclaration(m) });
      }
    }
    if (ts.isInterfaceDeclaration(node) && node.name.text === 'Options') {
      for (const m of node.members) if (m.name && ts.isIdentifier(m.name)) options.push(m.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { members, options };
}

describe('the opossum types', () => {
  it('when opossum is imported, then its types come from our declaration of opossum 10, not from @types/opossum (which describes opossum 8)', () => {
    const resolved = ts.resolveModuleName('opossum', join(ROOT, 'src/verification/upstream/http-upstream.ts'), compilerOptions(), ts.sys);
    expect(resolved.resolvedModule?.resolvedFileName).toBe(DECLARATION);
  });

  it('when our declaration is compared with the installed opossum, then it declares only members it really has', () => {
    const installed = JSON.parse(readFileSync(join(ROOT, 'node_modules/opossum/package.json'), 'utf8')) as { version: string };
    expect(installed.version).toMatch(/^10\./);
    const { members, options } = declared();
    expect(members.length).toBeGreaterThan(0);
    const breaker = new CircuitBreaker(async () => 1, { timeout: false });
    try {
      for (const { name, method } of members) {
        if (name === 'constructor') continue;
        const value: unknown = (breaker as unknown as Record<string, unknown>)[name];
        expect([name, typeof value]).toEqual([name, method ? 'function' : 'boolean']);
      }
    } finally {
      breaker.shutdown();
    }
    const circuitSource = readFileSync(join(ROOT, 'node_modules/opossum/lib/circuit.js'), 'utf8');
    for (const option of options) expect([option, circuitSource.includes(`options.${option}`)]).toEqual([option, true]);
  });
});
