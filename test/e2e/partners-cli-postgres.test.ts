import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main';
import { Harness, startHarness } from '../support/harness';
import { RegistryEnv, legacyStatus, registryEnv, timeUntil } from '../support/partner-registry';

/* `partners add` and `partners import` on the database registry: in force on a running instance within 2 s. */

function io(env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l), env }, out, err };
}

describe('partners CLI with DATABASE_URL', () => {
  let reg: RegistryEnv;
  let h: Harness;
  let cliEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    reg = await registryEnv('postgres');
    h = await startHarness({ env: reg.env });
    cliEnv = { DATABASE_URL: reg.env.DATABASE_URL, PARTNER_SECRETS_KEY_FILE: reg.env.PARTNER_SECRETS_KEY_FILE, USER: 'carol' };
  });
  afterAll(async () => {
    await h?.close();
    await reg?.close();
  });

  it('when partners add runs, then the running instance accepts the new partner within 2 s and the change log names the CLI', async () => {
    const { io: cli, out } = io(cliEnv);
    expect(await runCli(['partners', 'add', 'Cli Bank', '--operations', 'kyc'], cli)).toBe(0);
    expect(out[0]).toMatch(/database registry/);
    const apiKey = /^api_key=(.+)$/m.exec(out.join('\n'))![1];
    const secret = /^secret=([0-9a-f]{64})$/m.exec(out.join('\n'))![1];
    expect(await timeUntil(async () => await legacyStatus(h.url, { apiKey, secret }) === 200, 'CLI partner accepted')).toBeLessThan(2000);
    const [entry] = (await h.server.partnerAdmin.changes({ limit: 1 })).items;
    expect(entry).toMatchObject({ action: 'partner.create', partner: 'Cli Bank', actor: { type: 'cli', name: expect.stringContaining('carol') as unknown } });
    expect(JSON.stringify(entry)).not.toContain(secret);
  });

  it('when partners import runs, then the free names are added, the taken ones skipped, and the new ones sign at once', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'vc-import-')), 'more.json');
    writeFileSync(file, JSON.stringify({ partners: [
      { name: 'demo-bank', apiKey: 'other-demo-key', secret: 'x-secret', operations: ['kyc'] },
      { name: 'imported-bank', apiKey: 'imported-key', secret: 'imported-secret', operations: ['kyc'] },
    ] }));
    const { io: cli, out } = io(cliEnv);
    expect(await runCli(['partners', 'import', file], cli)).toBe(0);
    expect(out.join('\n')).toBe('imported 1 partner into the database registry; skipped (name or api key taken): demo-bank');
    await timeUntil(async () => await legacyStatus(h.url, { apiKey: 'imported-key', secret: 'imported-secret' }) === 200, 'imported partner accepted');
    expect(await legacyStatus(h.url, { apiKey: 'other-demo-key', secret: 'x-secret' })).toBe(401);
    const rows = await reg.pg!.query<{ actor_type: string }>("SELECT actor_type FROM registry_changes WHERE partner = 'imported-bank'");
    expect(rows).toEqual([{ actor_type: 'cli' }]);
  });

  it('when the import file is invalid, then nothing is imported and the error names the file, not its content', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'vc-import-')), 'bad.json');
    writeFileSync(file, '{"partners": [{"name": "x", "apiKey": "k', 'utf8');
    const before = await reg.pg!.query('SELECT name FROM registry_partners');
    await expect(runCli(['partners', 'import', file], io(cliEnv).io)).rejects.toThrow(/is not valid JSON/);
    expect(await reg.pg!.query('SELECT name FROM registry_partners')).toEqual(before);
  });
});
