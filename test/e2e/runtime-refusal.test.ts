import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { MIN_NODE_MAJOR } from '../../src/kernel/runtime-check';
import { runCommand } from '../../tools/process-kit/child-process';

/*
 * CONTRACT §6: started on a Node.js older than 24, each entry (the service, the CLI, the
 * simulator) says so and how to get Node 24, exits non-zero, and crashes on nothing first. The
 * built entries run on a real older node: the tests themselves run on Node 24 from
 * node_modules/.bin, and the system node (v20 here and in CI) is the one a user gets by typing
 * `node dist/src/main.js`. There is no skipping: without an older node this cannot be shown.
 */

const ENTRIES = [
  { program: 'verify-customer', what: 'the service', file: 'dist/src/main.js' },
  { program: 'verify-customer', what: 'the CLI', file: 'dist/src/cli/main.js' },
  { program: 'simulator', what: 'the simulator', file: 'dist/src/simulator/main.js' },
] as const;

interface OldNode { path: string; version: string }

/** Every `node` on PATH (and the usual system places) outside node_modules, with its version. */
function nodesOnMachine(): OldNode[] {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/local/bin', '/usr/bin', '/bin'];
  const seen = new Set<string>();
  const found: OldNode[] = [];
  for (const dir of dirs) {
    if (!dir || dir.split(/[\\/]/).includes('node_modules')) continue;
    const path = join(dir, 'node');
    if (seen.has(path)) continue;
    seen.add(path);
    try {
      accessSync(path, constants.X_OK);
      found.push({ path, version: execFileSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8', timeout: 20_000 }).trim() });
    } catch {
      // not there, or not a runnable node
    }
  }
  return found;
}

function oldNode(): OldNode {
  const nodes = nodesOnMachine();
  const old = nodes.find((n) => Number(n.version.split('.')[0]) < MIN_NODE_MAJOR);
  if (!old) {
    throw new Error(`no Node.js older than ${MIN_NODE_MAJOR} found outside node_modules (PATH, /usr/local/bin, /usr/bin, /bin); ` +
      `found: ${nodes.map((n) => `${n.path} v${n.version}`).join(', ') || 'none'}. Install one (e.g. the distribution's nodejs, v20) to run this test.`);
  }
  return old;
}

describe('the runtime check at each entry, on a Node.js older than 24', () => {
  let node: OldNode;
  beforeAll(() => {
    node = oldNode();
  });

  it.each(ENTRIES)('when $what ($file) is started on it, then it prints the refusal, exits non-zero and shows no stack trace', async ({ program, file }) => {
    const entry = join(__dirname, '../..', file);
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run "npm run build" first`);
    // A port of 0 and no fixture change: were the check to let it through, the entry would start and the test time out.
    const run = await runCommand(node.path, [entry], { env: { PATH: process.env.PATH, PORT: '0', SIMULATOR_PORT: '0' }, timeoutMs: 30_000 });
    expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr: `${program}: Node.js ${node.version} is not supported; it needs Node ${MIN_NODE_MAJOR} or newer. ` +
        'Run it through npm (npm start, npm exec) after npm ci, which brings Node 24 into node_modules/.bin.\n',
    });
  });
});
