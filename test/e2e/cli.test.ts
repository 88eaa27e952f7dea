import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPartnersFile } from '../../src/partners/file-partner-registry';
import { runCli } from '../../src/cli/main';
import { Harness, asAnswer, startHarness } from '../support/harness';
import { md5Sig } from '../support/signing';

function io(env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l), env }, out, err };
}

describe('the verify-customer CLI', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('when sign is run, then it prints a query string the service accepts', async () => {
    const { io: cli, out } = io();
    expect(await runCli(['sign', '--key', 'demo-key', '--secret', 'demo-secret', '--timestamp', '1800000000'], cli)).toBe(0);
    expect(out).toEqual([`api_key=demo-key&timestamp=1800000000&sig=${md5Sig('demo-key', 'demo-secret', '1800000000')}`]);
  });

  it('when call kyc is run, then it sends a signed request and prints the answer', async () => {
    const { io: cli, out } = io();
    expect(await runCli(['call', 'kyc', '0712000001', '--url', h.url], cli)).toBe(0);
    expect(out[0]).toBe('HTTP 200');
    expect(JSON.parse(out[1])).toEqual({ code: '00000', desc: 'Success', result: { msisdn: '0712000001', is_prepaid: 'true', is_active: 'true', is_valid: 'true' } });
  });

  it('when call sim_swap is run with an hmac partner and max_age, then it is answered', async () => {
    const { io: cli, out } = io({ VC_API_KEY: 'demo-hmac-key', VC_SECRET: 'demo-hmac-secret', VC_URL: h.url });
    expect(await runCli(['call', 'sim_swap', '255712000006', '--hmac', '--max-age', '24'], cli)).toBe(0);
    expect(asAnswer(JSON.parse(out[1])).result?.sim_swapped).toBe('true');
  });

  it('when the call is refused, then it exits non-zero and prints the failure body', async () => {
    const { io: cli, out } = io();
    expect(await runCli(['call', 'sim_swap', '255799999999', '--url', h.url], cli)).toBe(1);
    expect(out[0]).toBe('HTTP 404');
  });

  it('when partners add is run, then it writes a valid partner with a 32-byte secret that can call at once after a reload', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vc-cli-'));
    const file = join(dir, 'partners.json');
    writeFileSync(file, readFileSync(join(__dirname, '../../fixtures/demo-partners.json')));
    const { io: cli, out } = io();
    expect(await runCli(['partners', 'add', 'Acme Bank', '--file', file, '--operations', 'kyc'], cli)).toBe(0);
    const added = readPartnersFile(file).find((p) => p.name === 'Acme Bank')!;
    expect(added.secret).toMatch(/^[0-9a-f]{64}$/);
    expect([...added.operations]).toEqual(['kyc']);
    expect(out).toContain(`api_key=${added.apiKey}`);
    expect(await runCli(['partners', 'add', 'Acme Bank', '--file', file], io().io)).toBe(2);
  });

  it('when the command is unknown, then it prints usage', async () => {
    const { io: cli, err } = io();
    expect(await runCli(['frobnicate'], cli)).toBe(2);
    expect(err.join('\n')).toMatch(/usage|verify-customer <command>/i);
  });
});
