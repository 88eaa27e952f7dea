import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { demoTokenCommand } from '../../src/demo-token-command';
import { Harness, startHarness } from '../support/harness';

describe('the start-up token command', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(() => h.close());

  it('pasted into a shell, leaves a token the service accepts in $TOKEN', async () => {
    const partner = h.server.partners.find('demo-key')!;
    // Asynchronously: the server answering curl runs in this process.
    const { stdout: out } = await promisify(execFile)('bash', ['-c', `${demoTokenCommand(h.url, partner)}; echo "[$TOKEN]"`], { encoding: 'utf8', timeout: 10_000 });
    const token = /\[([^\]]*)\]/.exec(out)?.[1] ?? '';
    const grant = await h.server.accessTokens.verify(token);
    expect(grant.partner.apiKey).toBe('demo-key');
  });
});
