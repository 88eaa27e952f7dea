import { Clock } from '../../kernel/clock';
import { StateStore, StoreMode } from '../ports/state-store';
import { MemoryCache } from './memory-cache';
import { MemoryQuotaCounter } from './memory-quota-counter';
import { MemoryRateLimiter } from './memory-rate-limiter';
import { MemoryTxnStore } from './memory-txn-store';
import { SequentialAdmission } from './sequential-admission';

export interface MemoryStoreOptions {
  clock: Clock;
  maxCacheEntries: number;
  maxTxnEntries: number;
  onTxnEvict?: () => void;
}

/** All state in this process: the embedded default (one instance only). */
export class MemoryStateStore implements StateStore {
  readonly cache: MemoryCache;
  readonly txns: MemoryTxnStore;
  readonly rateLimiter: MemoryRateLimiter;
  readonly admission = new SequentialAdmission(this);
  readonly quotas: MemoryQuotaCounter;

  constructor(opts: MemoryStoreOptions) {
    this.cache = new MemoryCache(opts.clock, opts.maxCacheEntries);
    this.txns = new MemoryTxnStore(opts.clock, opts.maxTxnEntries, opts.onTxnEvict);
    this.rateLimiter = new MemoryRateLimiter(opts.clock);
    // As many counts as cache entries: each stands for a number asked about, as a cache entry does.
    this.quotas = new MemoryQuotaCounter(opts.clock, opts.maxCacheEntries);
  }

  mode(): StoreMode {
    return 'memory';
  }

  async close(): Promise<void> {}
}
