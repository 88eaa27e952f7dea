import { IncomingMessage, Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CommandResult, runCommand } from '../../tools/process-kit/child-process';

/* The CI helper scripts refuse a bad command line with exit 2 before they send anything. */
const HELPERS = join(__dirname, '../../.ci/observability');

let server: Server;
let url: string;
const received: string[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    received.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success","data":{"resultType":"vector","result":[],"groups":[],"alerts":[]}}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => { received.length = 0; });

const run = (script: string, args: string[]): Promise<CommandResult> =>
  runCommand(process.execPath, [join(HELPERS, script), ...args.map((a) => a.replace('$URL', url))], { env: { PATH: process.env.PATH } });

describe('the CI helper scripts refuse a command line they cannot act on', () => {
  it.each<[string, string, string[], RegExp]>([
    ['drive-traffic with one URL of three', 'drive-traffic.js', ['$URL'], /expected 3 URLs, got 1/],
    ['drive-traffic with an option it does not have', 'drive-traffic.js', ['$URL', '$URL', '$URL', '--fast'], /Unknown option '--fast'/],
    ['drive-traffic with something that is not a URL', 'drive-traffic.js', ['$URL', '$URL', 'localhost'], /must be an http/],
    ['check-panels with --timeout-s that is not a number', 'check-panels.js', ['--prometheus', '$URL', '--dashboards', HELPERS, '--timeout-s', 'abc'], /--timeout-s must be a whole number/],
    ['check-panels with a misspelt option', 'check-panels.js', ['--promethues', '$URL', '--dashboards', HELPERS], /Unknown option '--promethues'/],
    ['check-panels without a value for --prometheus', 'check-panels.js', ['--dashboards', HELPERS, '--prometheus'], /argument missing/],
    ['check-panels with a positional', 'check-panels.js', ['--prometheus', '$URL', '--dashboards', HELPERS, 'extra'], /Unexpected argument 'extra'/],
  ])('%s: exit 2, the usage, nothing sent', async (_name, script, args, reason) => {
    const r = await run(script, args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(reason);
    expect(r.stderr).toMatch(/usage: node /);
    expect(received).toEqual([]);
  });
});
