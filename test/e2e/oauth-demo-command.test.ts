import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Harness, startHarness } from '../support/harness';
import { startServiceProcess } from '../support/service-process';
import { demoCamaraCommands, demoTokenCommand } from '../../src/oauth/demo-token-command';
import { until } from '../support/until';

const sh = async (script: string) => (await promisify(execFile)('bash', ['-c', script], { encoding: 'utf8', timeout: 15_000 })).stdout;

describe('the start-up banner\'s CAMARA commands', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(() => h.close());

  it('when they are pasted into one shell, then a token is in $TOKEN and the CAMARA calls that use it are answered', async () => {
    const partner = h.server.partners.find('demo-key')!;
    // Asynchronously: the server answering curl runs in this process.
    const out = await sh([demoTokenCommand(h.url, partner), ...demoCamaraCommands(h.url, partner)].join('\n'));
    const [token, check, tenure, match, deviceSwap, forwarding, recycling] = out.trim().split('\n');
    await expect(h.server.accessTokens.verify(token ?? '')).resolves.toMatchObject({ partner: { apiKey: 'demo-key' } });
    expect(JSON.parse(check ?? '')).toEqual({ swapped: true });
    expect(JSON.parse(tenure ?? '')).toEqual({ tenureDateCheck: true, contractType: 'PAYG' });
    expect(JSON.parse(match ?? '')).toEqual({ givenNameMatch: 'true', familyNameMatch: 'true', birthdateMatch: 'false' });
    expect(JSON.parse(deviceSwap ?? '')).toEqual({ swapped: true });
    expect(JSON.parse(forwarding ?? '')).toEqual({ active: true });
    expect(JSON.parse(recycling ?? '')).toEqual({ phoneNumberRecycled: true });
  });

  it('when npm start runs with the demo registry, then it prints them and they work against that process', async () => {
    const svc = await startServiceProcess({});
    try {
      await until(() => svc.output().includes('kyc-age-verification'), 'the demo commands printed', 10_000);
      const lines = svc.output().split('\n');
      const script = [lines.find((l) => l.startsWith('TOKEN=')), ...lines.filter((l) => l.includes('Bearer $TOKEN'))];
      expect(script).toHaveLength(8);
      const [, check, tenure, match, deviceSwap, forwarding, recycling, age] = (await sh(script.join('\n'))).trim().split('\n');
      expect(JSON.parse(check ?? '')).toEqual({ swapped: true });
      expect(JSON.parse(tenure ?? '')).toMatchObject({ tenureDateCheck: true });
      // The in-process simulator serves customer records too: the match works on a bare npm start.
      expect(JSON.parse(match ?? '')).toEqual({ givenNameMatch: 'true', familyNameMatch: 'true', birthdateMatch: 'false' });
      expect(JSON.parse(deviceSwap ?? '')).toEqual({ swapped: true });
      expect(JSON.parse(forwarding ?? '')).toEqual({ active: true });
      expect(JSON.parse(recycling ?? '')).toEqual({ phoneNumberRecycled: true });
      expect(JSON.parse(age ?? '')).toEqual({ ageCheck: 'true', verifiedStatus: true });
    } finally {
      svc.proc.kill('SIGTERM');
      await svc.exited;
    }
  });
});
