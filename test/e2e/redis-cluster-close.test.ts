import { join } from 'node:path';
import { startProcess } from '../../tools/process-kit/child-process';
import { RedisClusterProcess, startRedisCluster } from '../support/redis-cluster';

/*
 * A closed Cluster client must let its process end (src/verification/state/closing-cluster.ts).
 * ioredis re-arms its slot-refresh timer when a refresh in flight at quit() ends, and when a
 * ready check is answered after quit(); the client then refreshes every 2 s for ever. It held
 * a CI run open for 90 minutes after its tests had passed. Each case runs the built client in
 * a process of its own, closes it in one of those windows, and asks whether the process ends.
 */
const CONNECTION = join(__dirname, '../../dist/src/verification/state/redis-connection.js');

// The child: builds the client as the service does, waits for the window, closes it, says so.
const CHILD = `
const { createRedisClient, closeClient } = require(process.env.CONNECTION);
const base = createRedisClient({ clusterNodes: process.env.NODES, commandTimeoutMs: 1000 });
const client = process.env.CASE.endsWith('duplicate') ? base.duplicate() : base;
if (client !== base) void closeClient(base);
const idle = () => new Promise((r) => setImmediate(r));
const close = async () => { await closeClient(client); console.log('closed'); };
if (process.env.CASE.includes('ready check')) {
  // 'connect' comes once the slots are read and the ready check (CLUSTER INFO) is sent.
  client.once('connect', () => void close());
} else {
  client.once('ready', async () => {
    // Wait for the periodic refresh (every 2 s) to be in flight, then close in its middle.
    while (!client.isRefreshing) await idle();
    await close();
  });
}
`;

let cluster: RedisClusterProcess;
beforeAll(async () => { cluster = await startRedisCluster(); });
afterAll(() => cluster.stop());

describe('a Cluster client closed at a bad moment lets its process end', () => {
  test.each(['a refresh in flight', 'its ready check in flight', 'a refresh in flight on a duplicate'])('when it is closed with %s, then the process ends by itself', async (kase) => {
    const child = await startProcess(process.execPath, ['-e', CHILD], {
      env: { ...process.env, CONNECTION, NODES: cluster.nodes, CASE: kase },
      ready: /closed/, what: `cluster client (${kase})`, timeoutMs: 15_000,
    });
    const ended = await Promise.race([
      child.exited.then(() => true),
      new Promise<false>((resolve) => { setTimeout(resolve, 6_000, false).unref(); }),
    ]);
    if (!ended) await child.stop(0);
    // Six seconds is three refresh intervals: a loop left running would have fired in it.
    expect({ kase, ended, output: child.output().trim() }).toEqual({ kase, ended: true, output: 'closed' });
  });
});
