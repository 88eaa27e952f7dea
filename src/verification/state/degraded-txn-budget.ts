import { UpstreamUnavailableError } from '../../errors/domain-errors';
import { Metrics } from '../ports/metrics';
import { Logger } from '../../observability/logger';
import { MemoryTxnStore } from './memory-txn-store';
import { OutageJournal } from './redis-outage-journal';

/**
 * Degraded mode's memory bound for txn_ids (docs/redis.md, "Memory bound while degraded").
 * A new txn_id past the budget is refused (9999/503, retried by the partner once Redis is
 * back) rather than stored by evicting an older one: an evicted txn_id that was answered
 * could be answered a second time. A txn_id already held still gets its replay or 409.
 */
export class DegradedTxnBudget {
  private reported = false;

  constructor(
    private readonly txns: MemoryTxnStore,
    private readonly journal: OutageJournal,
    private readonly maxBytes: number,
    private readonly deps: { metrics: Metrics; logger: Logger },
  ) {}

  /** Throws UpstreamUnavailableError when key is new and memory is full (bytes or entries). */
  admitNew(key: string): void {
    if (this.txns.peek(key)) return;
    const bytes = this.txns.bytes + this.journal.bytes;
    if (!this.txns.full && bytes < this.maxBytes) return;
    this.deps.metrics.stateStoreFailure('degraded_full');
    if (!this.reported) {
      this.reported = true;
      this.deps.logger.error({ entries: this.txns.size, bytes, maxBytes: this.maxBytes },
        'degraded mode memory for txn_ids full: new txn_ids refused (503) until Redis is back');
    }
    throw new UpstreamUnavailableError('state store unavailable; retry later', 1);
  }

  /** A new outage logs its first refusal again. */
  outageOver(): void {
    this.reported = false;
  }
}
