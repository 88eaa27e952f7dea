import { randomBytes } from 'node:crypto';
import { RedisClusterProcess, startRedisCluster } from './redis-cluster';
import { waitForStore } from '../../tools/process-kit/net-wait';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';

/*
 * TEST_STATE=redis|cluster runs the e2e suites with state on a real Redis instead of process
 * memory: startHarness asks here for the env to pass. One Redis (or cluster) serves every
 * harness of a test file; each harness gets its own key prefix, so harnesses stay as isolated
 * from each other as they are with the memory store.
 */
type StateKind = 'redis' | 'cluster';

interface Shared {
  env: Record<string, string>;
  stop(): Promise<void>;
}

let shared: Promise<Shared> | undefined;
let users = 0;
let stopTimer: NodeJS.Timeout | undefined;
// Harnesses of one file follow each other within milliseconds; a cluster costs ~2 s to make.
const LINGER_MS = 500;

function stateKind(): StateKind | undefined {
  const v = process.env.TEST_STATE;
  if (v === undefined || v === '' || v === 'memory') return undefined;
  if (v === 'redis' || v === 'cluster') return v;
  throw new Error(`TEST_STATE must be memory, redis or cluster, not ${v}`);
}

async function start(kind: StateKind): Promise<Shared> {
  let proc: RedisProcess | RedisClusterProcess;
  let env: Record<string, string>;
  if (kind === 'cluster') {
    const c = await startRedisCluster();
    proc = c;
    env = { REDIS_CLUSTER_NODES: c.nodes };
  } else {
    const r = await startRedis();
    proc = r;
    env = { REDIS_URL: r.url };
  }
  // The worker may exit before the linger timer fires; stop() sends its SIGKILLs synchronously.
  const onExit = () => void proc.stop();
  process.once('exit', onExit);
  return {
    env,
    stop: async () => {
      process.removeListener('exit', onExit);
      await proc.stop();
    },
  };
}

export interface TestState {
  env: Record<string, string>;
  release(): void;
}

/**
 * The env for state on the shared Redis when TEST_STATE asks for one; undefined when state
 * stays in memory or the test configures Redis itself.
 */
export async function acquireTestState(testEnv: Record<string, string> = {}): Promise<TestState | undefined> {
  const kind = stateKind();
  if (!kind || testEnv.REDIS_URL || testEnv.REDIS_CLUSTER_NODES) return undefined;
  users++;
  clearTimeout(stopTimer);
  shared ??= start(kind);
  let s: Shared;
  try {
    s = await shared;
  } catch (err) {
    users--;
    shared = undefined;
    throw err;
  }
  let released = false;
  return {
    env: { ...s.env, REDIS_KEY_PREFIX: `h${randomBytes(6).toString('hex')}:` },
    release: () => {
      if (released) return;
      released = true;
      if (--users > 0) return;
      stopTimer = setTimeout(() => {
        const stopping = shared;
        shared = undefined;
        void stopping?.then((x) => x.stop());
      }, LINGER_MS);
    },
  };
}

/** Waits until /readyz says state is on Redis: the store connects in the background. */
export async function waitForRedisState(baseUrl: string, timeoutMs = 10_000): Promise<void> {
  await waitForStore(baseUrl, 'redis', { timeoutMs, orThrow: true });
}
