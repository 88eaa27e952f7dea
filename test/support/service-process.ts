import { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNode } from '../../tools/process-kit/child-process';

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
  const svc = await startNode([MAIN], {
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', ADMIN_CONSOLE_PORT: '0', AUDIT_DIR: mkdtempSync(join(tmpdir(), 'vc-audit-')), ...env }, ready: /"url":"(http:\/\/[^"]+)"/, what: 'service',
  });
  return {
    proc: svc.proc, url: (svc.match as RegExpExecArray)[1], exited: svc.exited,
    output: () => svc.output(),
    count: (re) => svc.output().split('\n').filter((l) => re.test(l)).length,
  };
}
