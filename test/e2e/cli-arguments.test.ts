import { createHmac } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { IncomingMessage, Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandResult, runCommand } from '../../tools/process-kit/child-process';

/*
 * The CLI as a user runs it: node dist/src/cli/main.js, its exit code and its output. Every
 * call points at a local server that records what reaches it, so "nothing was sent" is seen,
 * not assumed.
 */
const CLI = join(__dirname, '../../dist/src/cli/main.js');

interface Received {
  path: string;
  body: string;
}

let server: Server;
let url: string;
const received: Received[] = [];

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first (npm test does)`);
  server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (d: Buffer) => { body += d.toString('utf8'); });
    req.on('end', () => {
      received.push({ path: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":"00000"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => { received.length = 0; });

const cli = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CommandResult> =>
  runCommand(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...env } });

function expectUsageError(r: CommandResult, reason: RegExp): void {
  expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
  expect(r.stderr).toMatch(reason);
  expect(r.stderr).toMatch(/usage: verify-customer <command>/);
}

describe('the CLI refuses a command line it cannot act on (exit 2, nothing signed or sent)', () => {
  it.each<[string, string[], RegExp]>([
    ['a misspelt option (--secert) instead of signing with the demo secret', ['call', 'kyc', '0712000001', '--secert', 's3cr3t'], /Unknown option '--secert'/],
    ['--max-age that is not a number', ['call', 'sim_swap', '0712000001', '--max-age', 'abc'], /--max-age must be a whole number from 1 to 2400/],
    ['--max-age 0', ['call', 'sim_swap', '0712000001', '--max-age', '0'], /--max-age must be a whole number from 1 to 2400/],
    ['--max-age 2401', ['call', 'sim_swap', '0712000001', '--max-age=2401'], /--max-age must be a whole number from 1 to 2400/],
    ['--max-age 2.5', ['call', 'sim_swap', '0712000001', '--max-age', '2.5'], /--max-age must be a whole number/],
    ['--max-age 24h', ['call', 'sim_swap', '0712000001', '--max-age', '24h'], /--max-age must be a whole number/],
    ['--max-age on kyc', ['call', 'kyc', '0712000001', '--max-age', '24'], /--max-age applies to sim_swap only/],
    ['--key without a value (instead of the demo key)', ['call', 'kyc', '0712000001', '--key'], /'--key <value>' argument missing/],
    ['--key whose value is the next option', ['call', 'kyc', '0712000001', '--key', '--secret', 's'], /'--key' argument is ambiguous/],
    ['a value given to the --hmac flag', ['call', 'kyc', '0712000001', '--hmac=yes'], /'--hmac' does not take an argument/],
    ['a missing msisdn', ['call', 'kyc'], /missing MSISDN/],
    ['an extra argument', ['call', 'kyc', '0712000001', '0712000002'], /too many arguments/],
    ['an unknown operation', ['call', 'transfer', '0712000001'], /kyc or sim_swap/],
    ['a --url that is not http', ['call', 'kyc', '0712000001', '--url', 'ftp://example.org'], /must be an http:\/\/ or https:\/\/ URL/],
    ['an unknown command', ['frobnicate'], /unknown command/],
  ])('%s', async (_name, args, reason) => {
    // Options may come before the positionals: --url goes first so a trailing option stays last.
    const r = await cli(args[0] === 'call' && !args.some((a) => a.startsWith('--url')) ? ['call', '--url', url, ...args.slice(1)] : args);
    expectUsageError(r, reason);
    expect(received).toEqual([]);
  });

  it('when sign gets a misspelt option, then it prints no signature', async () => {
    expectUsageError(await cli(['sign', '--secert', 'x', '--timestamp', '1800000000']), /Unknown option '--secert'/);
  });

  it('when an option is refused, then its value never appears in the error (it may be a secret)', async () => {
    const r = await cli(['call', 'kyc', '0712000001', '--secert=sk_live_never_print', '--url', url]);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('sk_live_never_print');
  });
});

describe('the CLI reads flags as flags', () => {
  it('when call kyc --hmac MSISDN is run, then it signs with HMAC and sends MSISDN (the msisdn is not the value of --hmac)', async () => {
    const r = await cli(['call', 'kyc', '--hmac', '0712000001', '--key', 'k-hmac', '--secret', 'hmac-secret', '--url', url]);
    expect(r.code).toBe(0);
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0].body)).toMatchObject({ msisdn: '0712000001' });
    const q = new URL(received[0].path, url).searchParams;
    const ts = q.get('timestamp') as string;
    expect(q.get('sig')).toBe(createHmac('sha256', 'hmac-secret').update(`k-hmac${ts}`).digest('hex'));
  });

  it('when call sim_swap --max-age 24 is run, then it sends max_age 24', async () => {
    const r = await cli(['call', 'sim_swap', '0712000001', '--max-age', '24', '--url', url]);
    expect(r.code).toBe(0);
    expect(JSON.parse(received[0].body)).toMatchObject({ msisdn: '0712000001', max_age: 24 });
  });
});

describe('partners add and the partners file', () => {
  const SECRET = 'f00dfacecafe0123456789abcdef0123456789abcdef0123456789abcdef4242';
  const dirWith = (content: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'vc-cli-partners-'));
    writeFileSync(join(dir, 'partners.json'), content);
    return { dir, file: join(dir, 'partners.json') };
  };

  it('when the file is malformed, whatever the defect, then the error quotes none of it', async () => {
    const valid = `{"partners": [{"name": "acme", "apiKey": "acme-key-1234", "secret": "${SECRET}", "operations": ["kyc"]}]}`;
    const malformed = [
      valid.slice(0, valid.indexOf(SECRET) + 20), // cut in the middle of the secret
      valid.replace(`"${SECRET}"`, `${SECRET}`), // the secret unquoted: an unexpected token inside it
      valid.replace(`, "operations"`, ` "operations"`), // a missing comma right after the secret
      valid.replace(SECRET, `${SECRET}\u0001`), // a control character inside the string
      `\ufeff${valid}x`,
    ];
    const messages: string[] = [];
    for (const content of malformed) {
      const { dir, file } = dirWith(content);
      const r = await cli(['partners', 'add', 'Other', '--file', file]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      const message = r.stderr.split(file).join('<file>');
      for (let i = 0; i + 10 <= content.length; i++) expect(message).not.toContain(content.slice(i, i + 10));
      expect(readFileSync(file, 'utf8')).toBe(content);
      expect(readdirSync(dir)).toEqual(['partners.json']);
      messages.push(message);
    }
    // The same words for every defect: nothing in the message comes from the file.
    expect(new Set(messages)).toEqual(new Set(['verify-customer: partners file <file> is not valid JSON\n']));
  });

  it('when an add fails, then the file is left as it was, with no temp file holding the new secret', async () => {
    const { dir, file } = dirWith(JSON.stringify({ partners: [{ name: 'env', apiKey: 'env-key-1', secretEnv: 'NOT_SET_SECRET', operations: ['kyc'] }] }));
    const before = readFileSync(file, 'utf8');
    const r = await cli(['partners', 'add', 'Acme', '--file', file]);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/NOT_SET_SECRET is not set/);
    expect(readdirSync(dir)).toEqual(['partners.json']);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('when an option is misspelt, then nothing is added', async () => {
    const { dir, file } = dirWith('{"partners": []}');
    expectUsageError(await cli(['partners', 'add', 'Acme', '--file', file, '--operatoins', 'kyc']), /Unknown option '--operatoins'/);
    expect(readFileSync(file, 'utf8')).toBe('{"partners": []}');
    expect(readdirSync(dir)).toEqual(['partners.json']);
  });

  it('when an add succeeds, then the file is readable by its owner only (0600), even when it was 0644', async () => {
    const { dir, file } = dirWith('{"partners": []}');
    chmodSync(file, 0o644);
    const r = await cli(['partners', 'add', 'Acme', '--file', file, '--hmac']);
    expect(r.code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Beside it only the change log (CONTRACT §12), also 0600, naming the CLI and holding no secret.
    expect(readdirSync(dir).sort()).toEqual(['partners.json', 'partners.json.changes.jsonl']);
    expect(statSync(`${file}.changes.jsonl`).mode & 0o777).toBe(0o600);
    const secret = /^secret=([0-9a-f]{64})$/m.exec(r.stdout)?.[1];
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ partners: [{ name: 'Acme', secret, signature: 'hmac-sha256' }] });
    const log = readFileSync(`${file}.changes.jsonl`, 'utf8');
    expect(JSON.parse(log)).toMatchObject({ action: 'partner.create', partner: 'Acme', actor: { type: 'cli' } });
    expect(log).not.toContain(secret);
  });

  it('when the file is new, then it is created 0600', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vc-cli-partners-'));
    const file = join(dir, 'partners.json');
    expect((await cli(['partners', 'add', 'Acme', '--file', file])).code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual(['partners.json', 'partners.json.changes.jsonl']);
  });
});
