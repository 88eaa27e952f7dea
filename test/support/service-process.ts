import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const MAIN = join(__dirname, '../../dist/src/main.js');

export interface ServiceProcess {
  proc: ChildProcess;
  url: string;
  output(): string;
  /** Count of output lines matching re so far. */
  count(re: RegExp): number;
  exited: Promise<number | null>;
}

/** The built service as a real process (node dist/src/main.js), once it has printed its URL. */
export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" first (npm test does)`);
  const proc = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', AUDIT_DIR: mkdtempSync(join(tmpdir(), 'vc-audit-')), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout.on('data', (d) => { out += d; });
  proc.stderr.on('data', (d) => { out += d; });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 15_000;
  for (;;) {
    const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
    if (m) {
      return {
        proc, url: m[1], exited,
        output: () => out,
        count: (re) => out.split('\n').filter((l) => re.test(l)).length,
      };
    }
    if (proc.exitCode !== null || Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`service did not start:\n${out}`);
    }
    await sleep(50);
  }
}
