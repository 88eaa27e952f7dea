import { UpstreamUnavailableError } from '../../src/errors/domain-errors';
import { QuotaCounter, StoreMode } from '../../src/verification/ports/state-store';
import { FleetQuotaCounter } from '../../src/verification/state/fleet-quota-counter';

/*
 * The allowance is fleet-wide or nothing: the wrapper around a Redis-backed store's quotas
 * refuses while the store is degraded, and when a take failed over to memory during the call.
 */

function setup(flipDuringTake = false) {
  let mode: StoreMode = 'redis';
  const taken: string[] = [];
  const given: string[] = [];
  const routed: QuotaCounter = {
    take: async (key) => {
      taken.push(key);
      if (flipDuringTake) mode = 'degraded';
      return { allowed: true, retryAfterMs: 0 };
    },
  };
  const shared = {
    quotas: { take: (key: string, limit: number, end: number) => routed.take(key, limit, end), giveBack: async (key: string) => { given.push(key); } },
    isUnavailable: (err: unknown) => err instanceof Error && err.message === 'down',
  };
  const counter = new FleetQuotaCounter({ mode: () => mode, quotas: routed }, shared);
  return { counter, taken, given, setMode: (m: StoreMode) => { mode = m; } };
}

describe('FleetQuotaCounter', () => {
  it('when the store is on Redis, then takes and give-backs reach it', async () => {
    const s = setup();
    expect(await s.counter.take('p:k', 10, 1)).toEqual({ allowed: true, retryAfterMs: 0 });
    await s.counter.giveBack('p:k', 1);
    expect([s.taken, s.given]).toEqual([['p:k'], ['p:k']]);
  });

  it('when the store is degraded, then a take is refused with 503 and Retry-After, counting nothing, and nothing is given back', async () => {
    const s = setup();
    s.setMode('degraded');
    const err = await s.counter.take('p:k', 10, 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect((err as UpstreamUnavailableError).retryAfterS).toBeGreaterThanOrEqual(1);
    await s.counter.giveBack('p:k', 1);
    expect([s.taken, s.given]).toEqual([[], []]);
  });

  it('when Redis fails during the take and memory answers it, then the request is refused all the same', async () => {
    const s = setup(true);
    await expect(s.counter.take('p:k', 10, 1)).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });
});
