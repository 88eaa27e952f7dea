import { StateStore } from '../../src/verification/ports/state-store';
import { until } from '../support/until';

/** What the quota tests need of the state store contract's suite: its store, clock and fresh keys. */
export interface QuotaSuite {
  store: StateStore;
  clock: { nowMs(): number; freeze(): void; advance(ms: number): void; thaw(): void };
  k(key: string): string;
}

/**
 * The quota counter of the StateStore port (KYC Match's per-number daily limit), run inside
 * describeStateStoreContract on the same stores: memory, standalone Redis, Redis Cluster.
 */
export function describeQuotaCounterContract(s: () => QuotaSuite): void {
  describe('quota counter', () => {
    beforeEach(() => s().clock.freeze());

    it('when a key has counted its limit, then it refuses until the window ends, counting nothing', async () => {
      const end = s().clock.nowMs() + 60_000;
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push(await s().store.quotas.take(s().k('p:2026-11-26:n'), 3, end));
      expect(decisions.slice(0, 3)).toEqual([{ allowed: true, retryAfterMs: 0 }, { allowed: true, retryAfterMs: 0 }, { allowed: true, retryAfterMs: 0 }]);
      expect(decisions[3]).toEqual({ allowed: false, retryAfterMs: 60_000 });
      s().clock.advance(15_000);
      expect(await s().store.quotas.take(s().k('p:2026-11-26:n'), 3, end)).toEqual({ allowed: false, retryAfterMs: 45_000 });
      // A higher limit (the setting raised) counts on from what was counted, refusals excluded.
      expect((await s().store.quotas.take(s().k('p:2026-11-26:n'), 4, end)).allowed).toBe(true);
      expect((await s().store.quotas.take(s().k('p:2026-11-26:n'), 4, end)).allowed).toBe(false);
    });

    it('when keys differ (partner, number or day), then each has its own count', async () => {
      const end = s().clock.nowMs() + 60_000;
      expect((await s().store.quotas.take(s().k('p:d1:n'), 1, end)).allowed).toBe(true);
      expect((await s().store.quotas.take(s().k('p:d1:n'), 1, end)).allowed).toBe(false);
      expect((await s().store.quotas.take(s().k('p:d2:n'), 1, end)).allowed).toBe(true);
      expect((await s().store.quotas.take(s().k('q:d1:n'), 1, end)).allowed).toBe(true);
      expect((await s().store.quotas.take(s().k('p:d1:m'), 1, end)).allowed).toBe(true);
    });

    it('when many takes arrive at once, then exactly the limit is allowed', async () => {
      const end = s().clock.nowMs() + 60_000;
      const all = await Promise.all(Array.from({ length: 30 }, () => s().store.quotas.take(s().k('p:race:n'), 10, end)));
      expect(all.filter((d) => d.allowed)).toHaveLength(10);
    });

    it('when a use is given back, then one more is allowed, and never more than the limit however many are given back', async () => {
      const end = s().clock.nowMs() + 60_000;
      const { quotas } = s().store;
      expect(typeof quotas.giveBack).toBe('function');
      expect((await quotas.take(s().k('p:back:n'), 2, end)).allowed).toBe(true);
      expect((await quotas.take(s().k('p:back:n'), 2, end)).allowed).toBe(true);
      expect((await quotas.take(s().k('p:back:n'), 2, end)).allowed).toBe(false);
      await quotas.giveBack!(s().k('p:back:n'), end);
      expect((await quotas.take(s().k('p:back:n'), 2, end)).allowed).toBe(true);
      expect((await quotas.take(s().k('p:back:n'), 2, end)).allowed).toBe(false);
      for (let i = 0; i < 5; i++) await quotas.giveBack!(s().k('p:back:n'), end);
      const after = [];
      for (let i = 0; i < 4; i++) after.push((await quotas.take(s().k('p:back:n'), 2, end)).allowed);
      expect(after).toEqual([true, true, false, false]);
    });

    it('when the window has ended, then the key is forgotten', async () => {
      s().clock.thaw();
      const end = Date.now() + 300;
      expect((await s().store.quotas.take(s().k('p:short:n'), 1, end)).allowed).toBe(true);
      expect((await s().store.quotas.take(s().k('p:short:n'), 1, end)).allowed).toBe(false);
      // Redis forgets the key at the window's end on its own clock (the machine's): wait for that instant, not a guessed time.
      await until(() => Date.now() > end + 5, 'the window ended');
      expect((await s().store.quotas.take(s().k('p:short:n'), 1, Date.now() + 60_000)).allowed).toBe(true);
    });
  });
}
