import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { KYC_MATCH, KYC_MATCH_SCOPE } from '../support/kyc-match-fixtures';

/*
 * `verify-customer audit --msisdn` on KYC Match records: the summary (attributes compared and
 * counts) is shown in a `match` column, present only when a record has one; never a value.
 */

const CLI = join(__dirname, '../../dist/src/cli/main.js');

async function audit(msisdn: string, dir: string): Promise<string> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first (npm test does)`);
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'audit', '--msisdn', msisdn], { env: { PATH: process.env.PATH, AUDIT_DIR: dir } });
  return stdout;
}

describe('audit CLI: KYC Match records', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vc-audit-kyc-match-'));
  let c: CamaraHarness;
  beforeAll(async () => {
    c = await startCamaraHarness({ env: { AUDIT_DIR: dir } });
  });
  afterAll(async () => {
    await c?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when a number was matched, then audit shows the attributes compared and the counts, and no value; other numbers show no match column', async () => {
    const token = await c.tokens.twoLegged({ scope: `${KYC_MATCH_SCOPE} kyc-tenure:check-tenure` });
    const r = await c.call(KYC_MATCH, { phoneNumber: '+255712000011', givenName: 'Jose', birthdate: '1987-04-21', nameKanaZenkaku: 'ホセ' }, { token });
    expect(r.status).toBe(200);
    expect((await c.call('/kyc-tenure/v0.2/check-tenure', { phoneNumber: '+255712000001', tenureDate: '2024-01-01' }, { token })).status).toBe(200);
    await c.h.server.audit.flush();

    const matched = (await audit('255712000011', dir)).trimEnd().split('\n');
    expect(matched[0]).toBe('1 record(s) for 255712000011');
    expect(matched[1]).toMatch(/\sreplayed\s+match$/);
    expect(matched[3]).toMatch(/kyc_match\.match .*givenName,nameKanaZenkaku,birthdate: 1 true, 1 false, 1 not_available$/);
    expect(matched.join('\n')).not.toMatch(/Jose|José|1987|ホセ/);

    const other = (await audit('255712000001', dir)).trimEnd().split('\n');
    expect(other[1]).toMatch(/\sreplayed$/);
  });
});
