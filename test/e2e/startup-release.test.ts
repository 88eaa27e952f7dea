import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config';
import { systemClock } from '../../src/kernel/clock';
import { startServer } from '../../src/server';
import { MemoryStateStore } from '../../src/verification/state/memory-state-store';
import { captureLogs } from '../support/log-capture';

/*
 * A start that fails part-way closes what it had started: the in-process simulator's listener,
 * the state store. The real server and simulator; the store is the real memory store, watched.
 */

let dir: string;
let taken: net.Server;
let takenPort: number;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vc-start-'));
  taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  takenPort = (taken.address() as net.AddressInfo).port;
});

afterEach(async () => {
  await new Promise<void>((resolve) => taken.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

function simulatorUrlIn(lines: Record<string, unknown>[]): string {
  const url = lines.find((l) => typeof l.simulatorUrl === 'string')?.simulatorUrl;
  if (typeof url !== 'string') throw new Error('no simulatorUrl logged at start');
  return url;
}

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/hlr/subscribers/255712000001`, { signal: AbortSignal.timeout(2000) });
    return false;
  } catch (err) {
    return (err as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
  }
}

async function failedStart(env: Record<string, string>): Promise<{ error: Error; simulatorUrl: string; storeClosed: boolean }> {
  const logs = captureLogs('info');
  const store = new MemoryStateStore({ clock: systemClock, maxCacheEntries: 100, maxTxnEntries: 100 });
  let storeClosed = false;
  const close = store.close.bind(store);
  store.close = async () => { storeClosed = true; await close(); };
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', AUDIT_DIR: dir, ...env });
  const error = await startServer(config, { logger: logs.logger, store }).then(
    async (running) => { await running.close(); throw new Error('the start succeeded'); },
    (err: unknown) => err as Error,
  );
  return { error, simulatorUrl: simulatorUrlIn(logs.lines()), storeClosed };
}

describe('a start that fails part-way', () => {
  it('when the admin port is taken, then the start fails naming ADMIN_PORT and the simulator and state store it started are closed', async () => {
    const { error, simulatorUrl, storeClosed } = await failedStart({ ADMIN_PORT: String(takenPort) });
    expect(error.message).toMatch(new RegExp(`^ADMIN_PORT ${takenPort} on 127\\.0\\.0\\.1: .*EADDRINUSE`));
    expect(storeClosed).toBe(true);
    expect(await refused(simulatorUrl)).toBe(true);
  });

  it('when the signing key file is not a key, then the start fails with that cause and the modules started before are closed', async () => {
    const keyFile = join(dir, 'signing-key.pem');
    writeFileSync(keyFile, 'not a key\n');
    const { error, simulatorUrl, storeClosed } = await failedStart({ OAUTH_SIGNING_KEY_FILE: keyFile });
    expect(error.message).toMatch(/signing-key\.pem.* is neither/);
    expect(storeClosed).toBe(true);
    expect(await refused(simulatorUrl)).toBe(true);
  });
});
