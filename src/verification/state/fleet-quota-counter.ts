import { UpstreamUnavailableError } from '../../errors/domain-errors';
import { QuotaCounter, RateDecision, StateStore } from '../ports/state-store';

/** How long a caller is asked to wait while the count cannot be fleet-wide: a few probes of Redis. */
const DEGRADED_RETRY_AFTER_S = 5;

/** The shared store's own counter, reached without the fallback, and how it reports an outage. */
export interface SharedQuotas {
  readonly quotas: QuotaCounter & Required<Pick<QuotaCounter, 'giveBack'>>;
  isUnavailable(err: unknown): boolean;
}

/**
 * The quota counter of a Redis-backed store: fleet-wide or nothing (CONTRACT §11 amended). The
 * fallback store counts per instance while Redis is down, as it does rate limits; a per-number
 * allowance counted that way is N allowances with N instances (30 answers in one day in issue
 * 29). So while the store is degraded, and when a take failed over to memory mid-call, the
 * request is refused with 503 (Retry-After) instead. Takes still go through the fallback's
 * routing, so an outage seen here degrades the store (and its deadline bounds the call).
 * Uses are given back on Redis only: a count the outage keeps stays spent (the safe side).
 */
export class FleetQuotaCounter implements QuotaCounter {
  constructor(private readonly store: Pick<StateStore, 'mode' | 'quotas'>, private readonly shared: SharedQuotas) {}

  async take(key: string, limit: number, windowEndMs: number): Promise<RateDecision> {
    this.requireFleet();
    const decision = await this.store.quotas.take(key, limit, windowEndMs);
    // Redis failed during this take and memory answered: that count is this instance's only.
    this.requireFleet();
    return decision;
  }

  async giveBack(key: string, windowEndMs: number): Promise<void> {
    if (this.store.mode() !== 'redis') return;
    try {
      await this.shared.quotas.giveBack(key, windowEndMs);
    } catch (err) {
      if (!this.shared.isUnavailable(err)) throw err;
    }
  }

  private requireFleet(): void {
    if (this.store.mode() === 'degraded') {
      throw new UpstreamUnavailableError('state store unavailable: the allowance cannot be counted fleet-wide', DEGRADED_RETRY_AFTER_S);
    }
  }
}

/** store with its quotas replaced by a fleet-wide-or-nothing counter over shared's. */
export function withFleetQuotas(store: StateStore, shared: SharedQuotas): StateStore {
  const quotas = new FleetQuotaCounter(store, shared);
  return {
    cache: store.cache,
    txns: store.txns,
    rateLimiter: store.rateLimiter,
    admission: store.admission,
    quotas,
    mode: () => store.mode(),
    ...(store.whenSettled ? { whenSettled: (timeoutMs: number) => store.whenSettled!(timeoutMs) } : {}),
    close: () => store.close(),
  };
}
