import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { DOC_BLOCKS, blockIn, staleBlocks, withBlock, writeBlocks } from '../../scripts/camara-api-docs';
import { DECLARED_APIS } from '../../src/partners/camara-apis';

/*
 * The README's CAMARA section names every CAMARA API the service serves, with its release, and
 * every route: a new user read SIM Swap and KYC Tenure there and found Device Swap, Call
 * Forwarding Signal and Number Recycling only in the start-up output. Its table, and docs/'s tables
 * of every API, are written from the declarations (npm run docs:apis, scripts/camara-api-docs.ts);
 * docs/openapi-camara.yaml, written by hand, is the list to compare with (test/e2e/openapi.test.ts
 * holds it to the routes served).
 */

const ROOT = join(__dirname, '..', '..');

interface CamaraOpenApi { info: { summary: string }; paths: Record<string, unknown> }

function readmeSection(readme: string, heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README.md has no "## ${heading}" section`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

describe('README\'s CAMARA section', () => {
  const spec = load(readFileSync(join(ROOT, 'docs/openapi-camara.yaml'), 'utf8')) as CamaraOpenApi;
  const section = readmeSection(readFileSync(join(ROOT, 'README.md'), 'utf8'), 'The CAMARA APIs (GSMA Open Gateway)');

  it('when the OpenAPI file\'s summary is read, then it names the eight APIs served, each with its release', () => {
    const apis = [...spec.info.summary.matchAll(/([A-Z][A-Za-z ]*?) (\d+\.\d+\.\d+)/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(apis.sort()).toEqual([
      'Call Forwarding Signal 0.4.0', 'Device Swap 1.0.0', 'KYC Age Verification 0.2.1', 'KYC Match 0.4.0', 'KYC Tenure 0.2.0',
      'Number Recycling 0.2.0', 'SIM Swap 2.1.0', 'SIM Swap Subscriptions 0.3.0',
    ]);
    const missing = apis.filter((api) => !section.includes(`**${api}**`));
    expect(missing).toEqual([]);
  });

  it('when the declarations (src/partners/camara-apis.ts) are read, then the OpenAPI summary names each API version', () => {
    for (const api of DECLARED_APIS) expect(spec.info.summary).toContain(`${api.title} ${api.version}`);
  });

  it('when the OpenAPI file\'s CAMARA routes are read, then the README names each of them', () => {
    const routes = Object.keys(spec.paths).filter((p) => !p.startsWith('/oauth2/') && !p.startsWith('/.well-known/'));
    expect(routes.length).toBeGreaterThanOrEqual(11);
    expect(routes.filter((r) => !section.includes(`${r}\``))).toEqual([]);
  });
});

describe('the CAMARA API tables written from the declarations (npm run docs:apis)', () => {
  it('when README.md and docs/ are compared with the declarations, then every table is exactly the one rendered from them', () => {
    // On failure: edit src/partners/camara-apis.ts, never the table, then `npm run docs:apis`.
    expect(staleBlocks(ROOT)).toEqual([]);
  });

  it('when every table is rendered, then each API version has its row, with its root or routes and its registry operation', () => {
    const readme = DOC_BLOCKS.find((b) => b.file === 'README.md')!.render();
    const versions = DOC_BLOCKS.find((b) => b.name === 'versions')!.render();
    for (const api of DECLARED_APIS) {
      const row = readme.split('\n').find((l) => l.startsWith(`| **${api.title} ${api.version}** |`));
      expect([api.name, row]).toEqual([api.name, expect.stringContaining(`\`${api.registryOperation}\``) as unknown]);
      expect(row).toContain(api.root);
      expect(versions).toContain(`| **${api.title} ${api.version}** | \`${api.root}\` | \`${api.registryOperation}\` |`);
    }
  });

  it('when a table was edited by hand or its markers are gone, then it is named as stale, and writing puts back the rendering and nothing else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'camara-docs-'));
    try {
      cpSync(join(ROOT, 'docs'), join(dir, 'docs'), { recursive: true });
      const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
      const edited = withBlock(readme, 'routes', '| API (release) | Routes |\n|---|---|\n| **SIM Swap 2.1.0** | `/sim-swap/v2/check` |');
      writeFileSync(join(dir, 'README.md'), edited);
      const audit = readFileSync(join(ROOT, 'docs/audit.md'), 'utf8');
      writeFileSync(join(dir, 'docs/audit.md'), audit.replace('<!-- camara-apis:audit:end -->', ''));
      expect(staleBlocks(dir)).toEqual([
        'README.md: the camara-apis:routes table differs from the declarations: run npm run docs:apis',
        'docs/audit.md: the camara-apis:audit table differs from the declarations: run npm run docs:apis',
      ]);
      expect(() => writeBlocks(dir)).toThrow('docs/audit.md lacks the markers <!-- camara-apis:audit:begin --> … <!-- camara-apis:audit:end -->');
      writeFileSync(join(dir, 'docs/audit.md'), audit);
      expect(writeBlocks(dir)).toEqual(['README.md']);
      expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe(readme);
      expect(blockIn(readme, 'routes')).toBe(DOC_BLOCKS[0].render());
      expect(staleBlocks(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
