import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ServiceProcess, startServiceProcess } from '../support/service-process';

/*
 * The README's examples, run as a new user runs them: pasted into bash against `npm start` (the
 * built service on the demo registry and fixture). An example that shows its answer (JSON lines
 * under the command) must print exactly those JSON lines; other output (the token `echo`) is
 * not compared. The README's address, 127.0.0.1:8080, becomes the test's service.
 */

const README = readFileSync(join(__dirname, '../../README.md'), 'utf8');
const README_URL = 'http://127.0.0.1:8080';

interface Example { section: string; commands: string[]; answers: unknown[] }

const isJsonLine = (l: string) => l.startsWith('{') || l.startsWith('[');

/** Every ```sh block that calls the service and shows an answer, named after its section. */
function examples(readme: string): Example[] {
  const found: Example[] = [];
  for (const m of readme.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const lines = (m[1] ?? '').split('\n').filter((l) => l.trim() !== '');
    const answers = lines.filter(isJsonLine);
    if (!lines.some((l) => l.includes(README_URL)) || answers.length === 0) continue;
    const section = [...readme.slice(0, m.index).matchAll(/^#+ (.+)$/gm)].pop()?.[1] ?? '?';
    found.push({ section, commands: lines.filter((l) => !isJsonLine(l)), answers: answers.map((a) => JSON.parse(a) as unknown) });
  }
  return found;
}

const sh = async (script: string) => (await promisify(execFile)('bash', ['-c', script], { encoding: 'utf8', timeout: 20_000 })).stdout;

describe('the README\'s examples against npm start', () => {
  let svc: ServiceProcess;
  beforeAll(async () => {
    svc = await startServiceProcess({});
  });
  afterAll(async () => {
    svc.proc.kill('SIGTERM');
    await svc.exited;
  });

  it('when the README is read, then the examples with answers are found in Quick start, the CAMARA section and the GraphQL section', () => {
    expect(examples(README).map((e) => e.section)).toEqual([
      'Quick start', 'The CAMARA APIs (GSMA Open Gateway)', 'GraphQL (internal apps)', 'GraphQL (internal apps)',
    ]);
  });

  it.each(examples(README).map((e, i) => [`${i + 1} (${e.section})`, e] as const))('when example %s is pasted into a shell, then it prints the answers the README shows', async (_name, example) => {
    const out = await sh(example.commands.map((c) => c.replaceAll(README_URL, svc.url)).join('\n'));
    const printed = out.split('\n').filter(isJsonLine).map((l) => JSON.parse(l) as unknown);
    expect(printed).toEqual(example.answers);
  });

  it('when 011\'s record is matched as the demo table says, then "José" and "María" as middle name are true and "José María" as given name is false', async () => {
    const granted = await fetch(`${svc.url}/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('demo-key:demo-secret').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    const token = ((await granted.json()) as { access_token: string }).access_token;
    const match = async (attributes: Record<string, string>) => {
      const res = await fetch(`${svc.url}/kyc-match/v0.4/match`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ phoneNumber: '+255712000011', ...attributes }),
      });
      return res.json();
    };
    expect(await match({ givenName: 'José' })).toEqual({ givenNameMatch: 'true' });
    expect(await match({ givenName: 'Jose' })).toEqual({ givenNameMatch: 'true' });
    expect(await match({ givenName: 'José María' })).toEqual({ givenNameMatch: 'false' });
    expect(await match({ givenName: 'José', middleNames: 'María' })).toEqual({ givenNameMatch: 'true', middleNamesMatch: 'true' });
    expect(await match({ name: 'José María Núñez' })).toEqual({ nameMatch: 'true' });
  });
});
