import { MemoryStateStore } from '../../src/verification/state/memory-state-store';
import { describeStateStoreContract } from '../contract/state-store.contract';

// The embedded default: the same contract as Redis, so either can stand in for the other.
describeStateStoreContract('in-memory', async (clock) => {
  const store = new MemoryStateStore({ clock, maxCacheEntries: 1000, maxTxnEntries: 1000 });
  return { store, mode: 'memory', close: () => store.close() };
});
