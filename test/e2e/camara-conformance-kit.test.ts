import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CAMARA_DIR } from '../support/camara-spec';
import { TestIssuer, startTestIssuer } from '../support/oauth';
import { ServiceProcess, startServiceProcess } from '../support/service-process';

/*
 * The official CAMARA test definitions, run as they are by the conformance kit (conformance/,
 * `npm run conformance`) against the built service as a real process (CONTRACT §13): every
 * scenario passes or is listed in conformance/known-failures.json, and a second instance with
 * the optional behaviours turned on passes the scenarios listed as needing them. The kit gets
 * its three-legged and expired tokens from an issuer the service trusts, as an operator would.
 */

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const KIT = join(ROOT, 'dist', 'conformance', 'conformance', 'run.js');
const KNOWN = join(ROOT, 'conformance', 'known-failures.json');

/** The optional behaviours the listed scenarios name, all on in the second instance. */
const OPTIONAL: Record<string, string> = {
  KYC_MATCH_SCORES: 'true', KYC_MATCH_ID_DOCUMENT_REQUIRED: 'true', CALL_FORWARDING_LIST: 'false', SIM_SWAP_MONITORED_DAYS: '30', DEVICE_SWAP_MONITORED_DAYS: '30',
};

interface KitRun { code: number; stdout: string; stderr: string }
interface Listed { feature: string; tag: string; example?: string; enabledBy?: string }

describe('conformance kit: the official .feature files against the built service', () => {
  let dir: string;
  let issuer: TestIssuer;
  let plain: ServiceProcess;
  let optional: ServiceProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vc-kit-'));
    issuer = await startTestIssuer();
    writeFileSync(join(dir, 'issuer-key.json'), JSON.stringify(issuer.signingJwk()), { mode: 0o600 });
    // The demo partners, and one whose small rate limit the kit may exhaust (the 429 scenarios).
    const partners = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'demo-partners.json'), 'utf8')) as { partners: object[] };
    partners.partners.push({ name: 'kit-limited', apiKey: 'kit-limited', secret: 'kit-limited-secret', operations: ['call_forwarding'], rateLimit: { perSecond: 0.01, burst: 5 } });
    writeFileSync(join(dir, 'partners.json'), JSON.stringify(partners));
    // The kit checks hundreds of KYC Match answers for two numbers: above the per-number allowance.
    const env = { ...issuer.env, PARTNERS_FILE: join(dir, 'partners.json'), KYC_MATCH_MAX_PER_NUMBER_PER_DAY: '1000000', SINK_ALLOW_PRIVATE: 'true' };
    [plain, optional] = await Promise.all([
      startServiceProcess(env),
      startServiceProcess({ ...env, ...OPTIONAL }),
      run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'conformance', 'tsconfig.json')]),
    ]);
  }, 120_000);
  afterAll(async () => {
    for (const svc of [plain, optional]) {
      svc?.proc.kill('SIGKILL');
      await svc?.exited;
    }
    await issuer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function kit(svc: ServiceProcess, args: string[] = []): Promise<KitRun> {
    const argv = [KIT, '--base-url', svc.url, '--client-id', 'demo-key', '--client-secret', 'demo-secret', '--features', CAMARA_DIR,
      '--issuer-key', join(dir, 'issuer-key.json'), '--issuer', issuer.issuer, '--audience', issuer.audience, '--sink-url', 'https://127.0.0.1:9/sink', ...args];
    try {
      const { stdout, stderr } = await run(process.execPath, argv, { maxBuffer: 16 * 1024 * 1024 });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  }

  /** The table's row for an API: [scenarios, passed, listed, failed]. */
  const row = (stdout: string, api: string) => (new RegExp(`^\\| ${api.replace(/\./g, '\\.')} \\| (\\d+) \\| (\\d+) \\| (\\d+) \\| (\\d+) \\|$`, 'm').exec(stdout) ?? []).slice(1).map(Number);
  const listed = () => (JSON.parse(readFileSync(KNOWN, 'utf8')) as { scenarios: Listed[] }).scenarios;

  it('when the kit runs every official scenario against the service as configured by default, then each passes or is listed, and none fails', async () => {
    const r = await kit(plain, ['--rate-limited-client', 'kit-limited:kit-limited-secret']);
    expect([r.code, r.stdout]).toEqual([0, expect.not.stringMatching(/FAILED|LISTED BUT PASSED/) as unknown]);
    // Every API ran, all its scenarios (a feature file that ran nothing would pass vacuously).
    const counts: Record<string, number> = {
      'SIM Swap 2.1.0': 37, 'SIM Swap Subscriptions 0.3.0': 27, 'KYC Tenure 0.2.0': 14, 'KYC Match 0.4.0': 101,
      'Device Swap 1.0.0': 37, 'Call Forwarding Signal 0.4.0': 35, 'Number Recycling 0.2.0': 15, 'KYC Age Verification 0.2.1': 38,
    };
    for (const [api, n] of Object.entries(counts)) {
      const [scenarios, passed, list, failed] = row(r.stdout, api);
      expect([api, scenarios, passed + list, failed]).toEqual([api, n, n, 0]);
    }
    expect(r.stdout).not.toMatch(/API not yet offered/);
  }, 120_000);

  it('when the kit runs the listed optional scenarios against an instance with their settings on, then every one of them passes', async () => {
    const settings = Object.entries(OPTIONAL).flatMap(([k, v]) => ['--setting', `${k}=${v}`]);
    const r = await kit(optional, ['--only-enabled', ...settings]);
    expect([r.code, r.stdout]).toEqual([0, expect.not.stringMatching(/FAILED|LISTED BUT PASSED/) as unknown]);
    const optionalRows = listed().filter((e) => e.enabledBy !== undefined && Object.keys(OPTIONAL).includes(e.enabledBy.split('=')[0]));
    const ran = ['SIM Swap 2.1.0', 'KYC Match 0.4.0', 'Device Swap 1.0.0', 'Call Forwarding Signal 0.4.0'].map((api) => row(r.stdout, api));
    // KYC_Match_3 is one entry for its 14 rows.
    expect(ran.reduce((n, [scenarios]) => n + scenarios, 0)).toBe(optionalRows.length - 1 + 14);
    expect(ran.every(([scenarios, passed]) => scenarios === passed)).toBe(true);
  }, 120_000);

  it('when a failing scenario is not listed, or a listed one passes, then the kit fails the run and names both (the table cannot rot)', async () => {
    const table = listed().filter((e) => e.tag !== 'KYC_Match_5_success_specific_property_false');
    table.push({ feature: 'kyc-tenure.feature', tag: 'checkTenure_1_tenure_check_true', kind: 'feature-defect', reason: 'planted' } as Listed);
    writeFileSync(join(dir, 'known.json'), JSON.stringify({ scenarios: table }));
    const r = await kit(plain, ['--known', join(dir, 'known.json'), '--tags', '@KYC_Match_5_success_specific_property_false or @checkTenure_1_tenure_check_true']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAILED kyc-match\.feature @KYC_Match_5_success_specific_property_false \[\$\.givenName\]/m);
    expect(r.stdout).toMatch(/^LISTED BUT PASSED kyc-tenure\.feature @checkTenure_1_tenure_check_true/m);
  }, 60_000);

  it('when --data names other numbers, then the binding uses them; an unknown role is refused, naming it', async () => {
    const tag = ['--tags', '@check_sim_swap_2_valid_sim_swap_no_max_age'];
    expect((await kit(plain, tag)).code).toBe(0);
    // "Swapped in the last 240 hours" bound to a number swapped 90 days ago: the scenario must fail.
    writeFileSync(join(dir, 'data.json'), JSON.stringify({ numbers: { swappedRecently: '+255712000007' } }));
    const moved = await kit(plain, ['--data', join(dir, 'data.json'), ...tag]);
    expect([moved.code, moved.stdout]).toEqual([1, expect.stringMatching(/^FAILED sim-swap-checkSimSwap\.feature @check_sim_swap_2_valid_sim_swap_no_max_age/m) as unknown]);
    writeFileSync(join(dir, 'typo.json'), JSON.stringify({ numbers: { swapedRecently: '+255712000006' } }));
    const typo = await kit(plain, ['--data', join(dir, 'typo.json'), ...tag]);
    expect([typo.code, typo.stdout]).toEqual([1, expect.stringContaining('unknown number role swapedRecently') as unknown]);
  }, 60_000);

  it('when an option is missing or unknown, then usage on stderr and exit 2, before any request', async () => {
    for (const args of [[KIT, '--base-url', plain.url], [KIT, '--base-url', plain.url, '--client-id', 'x', '--client-secret', 'y', '--secert', 'z']]) {
      const r = await run(process.execPath, args).then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => e);
      expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/usage: npm run conformance|--secert/) as unknown]);
    }
  });
});
