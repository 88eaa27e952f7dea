import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { DECLARED_APIS } from '../../src/partners/camara-apis';

/*
 * The README's CAMARA section names every CAMARA API the service serves, with its release, and
 * every route: a new user read SIM Swap and KYC Tenure there and found Device Swap, Call
 * Forwarding Signal and Number Recycling only in the start-up output. docs/openapi-camara.yaml
 * is the list to compare with (test/e2e/openapi.test.ts holds it to the routes served).
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

  it('when the declarations (src/partners/camara-apis.ts) are read, then the README and the OpenAPI summary name each API version, its root and registry operation', () => {
    for (const api of DECLARED_APIS) {
      const row = section.split('\n').find((l) => l.startsWith(`| **${api.title} ${api.version}** |`));
      expect([api.name, row]).toEqual([api.name, expect.stringContaining(`\`${api.registryOperation}\``) as unknown]);
      expect(row).toContain(api.root);
      expect(spec.info.summary).toContain(`${api.title} ${api.version}`);
    }
  });

  it('when the OpenAPI file\'s CAMARA routes are read, then the README names each of them', () => {
    const routes = Object.keys(spec.paths).filter((p) => !p.startsWith('/oauth2/') && !p.startsWith('/.well-known/'));
    expect(routes.length).toBeGreaterThanOrEqual(11);
    expect(routes.filter((r) => !section.includes(`${r}\``))).toEqual([]);
  });
});
