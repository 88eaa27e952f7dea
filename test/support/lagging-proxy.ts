import { StallingProxy, startStallingProxy } from './stalling-proxy';

/**
 * A TCP proxy that holds everything flowing from the target back to the client for `lagMs`:
 * put between a replica and its master, it makes a replication link that far behind, as a
 * link between zones is. cut() is the master lost at that instant: the link drops, and what
 * was still on the way never arrives.
 */
export type LaggingProxy = Pick<StallingProxy, 'port' | 'cut' | 'close'>;

export function startLaggingProxy(targetPort: number, lagMs: number): Promise<LaggingProxy> {
  return startStallingProxy(targetPort, lagMs);
}
