import { StateSettings } from '../../config/state-settings';
import { Clock } from '../../kernel/clock';
import { Logger } from '../../observability/logger';
import { Metrics } from '../ports/metrics';
import { StateStore, StoreMode } from '../ports/state-store';
import { createStateStore } from './create-state-store';

export interface StateDeps {
  clock: Clock;
  logger: Logger;
  metrics: Metrics & { trackStoreMode(mode: () => StoreMode): void };
  /** A store built by the caller (tests, Redis wiring); default: the one the settings ask for. */
  store?: StateStore;
}

export interface State {
  store: StateStore;
  close(): Promise<void>;
}

/**
 * The shared state, reached before the factory returns (bounded): a balancer must not send a
 * fleet instance traffic it would answer from its own memory (docs/fleet.md), and the
 * listeners open only after every module is built.
 */
export async function createState(deps: StateDeps, config: StateSettings): Promise<State> {
  const { store: given, ...rest } = deps;
  const store = given ?? createStateStore(config, rest);
  deps.metrics.trackStoreMode(() => store.mode());
  if (store.whenSettled) {
    const mode = await store.whenSettled(Math.max(2000, 4 * config.REDIS_COMMAND_TIMEOUT_MS));
    if (mode === 'degraded') deps.logger.warn('Redis not reached at start: serving degraded until it answers');
  }
  return { store, close: () => store.close() };
}
