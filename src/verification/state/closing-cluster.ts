import { Callback, Cluster, ClusterNode, ClusterOptions } from 'ioredis';

/**
 * The part of ioredis's Cluster (5.11, pinned in package.json) this file reaches past its
 * types for; test/e2e/redis-cluster-close.test.ts fails if a new version moves it.
 */
interface RefreshLoop {
  isRefreshing: boolean;
  clearNodesRefreshInterval(): void;
  refreshSlotsCache(callback?: (err?: Error) => void): void;
}

/**
 * Stops the slot-map refresh loop for good. A refresh in flight runs its callbacks in the
 * order they were added: the loop's own (which arms the next round) first, then ours, which
 * clears what it armed.
 */
function stopRefreshLoop(cluster: Cluster): void {
  const loop = cluster as unknown as RefreshLoop;
  loop.clearNodesRefreshInterval();
  if (loop.isRefreshing) loop.refreshSlotsCache(() => loop.clearNodesRefreshInterval());
}

/**
 * A Cluster client whose quit() and disconnect() end it for good. ioredis refreshes the slot
 * map every slotsRefreshInterval with a timer that each refresh re-arms when it ends; quit()
 * and disconnect() clear that timer, but a refresh in flight at that moment (or a ready check
 * answered just after) arms it again, and the closed client then refreshes every interval
 * for the life of the process, which can never end by itself (seen as a test run that never
 * exited). Duplicates, such as BullMQ's blocking connections, are of this class too.
 */
export class ClosingCluster extends Cluster {
  /** The seeds it was given (ioredis keeps its own copy private), for duplicate(). */
  private readonly seeds: ClusterNode[];

  constructor(startupNodes: ClusterNode[], options?: ClusterOptions) {
    super(startupNodes, options);
    this.seeds = startupNodes.slice(0);
    // A ready check answered after quit() arms the loop again; the end that follows stops it.
    this.on('end', () => stopRefreshLoop(this));
  }

  override quit(callback?: Callback<'OK'>): Promise<'OK'> {
    const done = super.quit(callback);
    stopRefreshLoop(this);
    return done;
  }

  override disconnect(reconnect = false): void {
    super.disconnect(reconnect);
    if (!reconnect) stopRefreshLoop(this);
  }

  override duplicate(overrideStartupNodes: ClusterNode[] = [], overrideOptions: ClusterOptions = {}): ClosingCluster {
    const nodes = overrideStartupNodes.length > 0 ? overrideStartupNodes : this.seeds.slice(0);
    return new ClosingCluster(nodes, { ...this.options, ...overrideOptions });
  }
}
