import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const MAIN = join(__dirname, '../../dist/src/main.js');

interface Exit {
  code: number | null;
  stderr: string;
  stdout: string;
}

/** Runs the built service with env; a process still running after limitMs is killed and reported as such. */
function runService(env: Record<string, string>, limitMs: number): Promise<Exit & { killed: boolean }> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" first (npm test does)`);
  const proc = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env } });
  let stderr = '';
  let stdout = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  proc.stdout.on('data', (d) => { stdout += d; });
  return new Promise((resolve) => {
    let killed = false;
    const timer = setTimeout(() => { killed = true; proc.kill('SIGKILL'); }, limitMs);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout, killed });
    });
  });
}

describe('integer settings of the built service', () => {
  // Number() reads each of these as 0, so an unfixed service would start on a free port.
  it.each(['0x0', '0e3', '0.0'])('when PORT=%s, then it refuses to start, exits non-zero and names PORT', async (port) => {
    const run = await runService({ PORT: port }, 10_000);
    expect(run.killed).toBe(false);
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull();
    expect(run.stderr).toMatch(/\bPORT: must be a whole number in plain decimal digits/);
    expect(run.stdout).not.toMatch(/listening/);
  });
});

describe('settings that only make sense together, in the built service', () => {
  it.each<[string, Record<string, string>, RegExp]>([
    ['SIM_SWAP_MONITORED_DAYS is hexadecimal', { SIM_SWAP_MONITORED_DAYS: '0x10' }, /\bSIM_SWAP_MONITORED_DAYS: must be a whole number in plain decimal digits/],
    ['the webhook backoff base exceeds its max', { WEBHOOK_BACKOFF_BASE_MS: '5000', WEBHOOK_BACKOFF_MAX_MS: '1000' }, /\bWEBHOOK_BACKOFF_BASE_MS: must be at most WEBHOOK_BACKOFF_MAX_MS/],
    ['a txn_id claim is shorter than the HLR deadline', { TXN_IN_FLIGHT_TTL_S: '5', HLR_TIMEOUT_MS: '10000' }, /\bTXN_IN_FLIGHT_TTL_S: must outlast/],
    ['a Redis cluster node has port 99999', { REDIS_CLUSTER_NODES: '127.0.0.1:99999' }, /\bREDIS_CLUSTER_NODES: each port must be 1-65535/],
  ])('when %s, then the process exits non-zero naming the variable and never listens', async (_case, env, message) => {
    const run = await runService({ PORT: '0', ...env }, 10_000);
    expect(run.killed).toBe(false);
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull();
    expect(run.stderr).toMatch(message);
    expect(run.stdout).not.toMatch(/listening/);
  });
});

describe('the sink credentials key file of the built service', () => {
  it('when the key file holds no 32-byte key, then it refuses to start, exits non-zero and names SINK_CREDENTIALS_KEY_FILE', async () => {
    const run = await runService({ PORT: '0', SINK_CREDENTIALS_KEY_FILE: __filename }, 10_000);
    expect(run.killed).toBe(false);
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull();
    expect(run.stderr).toMatch(/SINK_CREDENTIALS_KEY_FILE: must hold a 32-byte key/);
    expect(run.stdout).not.toMatch(/listening/);
  });
});
