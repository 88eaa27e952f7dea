import { UpstreamUnavailableError } from '../../src/errors/domain-errors';
import { MemoryQuotaCounter } from '../../src/verification/state/memory-quota-counter';

/*
 * The in-memory quota counter's bound (issue 29): a count is never forgotten before its window
 * ends; when the bound is reached, a new key is refused (503), not made room for by forgetting.
 */

describe('MemoryQuotaCounter at its bound', () => {
  const DAY_END = 86_400_000;
  let now = 1000;
  const clock = { nowMs: () => now };
  beforeEach(() => { now = 1000; });

  it('when 100 other keys are counted after a spent key, then the spent key is still refused and the 101st new key gets 503 with Retry-After to the earliest window end', async () => {
    const q = new MemoryQuotaCounter(clock, 101);
    for (let i = 0; i < 10; i++) expect((await q.take('p:km:target', 10, DAY_END)).allowed).toBe(true);
    for (let i = 0; i < 100; i++) expect((await q.take(`p:km:other-${i}`, 10, DAY_END)).allowed).toBe(true);
    expect(await q.take('p:km:target', 10, DAY_END)).toEqual({ allowed: false, retryAfterMs: DAY_END - now });
    const refused = await q.take('p:km:one-more', 10, DAY_END).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UpstreamUnavailableError);
    expect((refused as UpstreamUnavailableError).retryAfterS).toBe(Math.ceil((DAY_END - now) / 1000));
    // Keys already counted are still answered at the bound.
    expect((await q.take('p:km:other-0', 10, DAY_END)).allowed).toBe(true);
    expect(await q.take('p:km:target', 10, DAY_END)).toEqual({ allowed: false, retryAfterMs: DAY_END - now });
  });

  it('when windows have ended, then their keys make room for new ones', async () => {
    const q = new MemoryQuotaCounter(clock, 2);
    await q.take('p:a', 1, 5000);
    await q.take('p:b', 1, DAY_END);
    now = 5000;
    expect((await q.take('p:c', 1, DAY_END)).allowed).toBe(true);
    expect((await q.take('p:b', 1, DAY_END)).allowed).toBe(false);
  });

  it('when a use is given back, then one more is allowed, never below zero', async () => {
    const q = new MemoryQuotaCounter(clock, 10);
    await q.take('p:a', 1, DAY_END);
    await q.giveBack('p:a');
    await q.giveBack('p:a');
    expect((await q.take('p:a', 1, DAY_END)).allowed).toBe(true);
    expect((await q.take('p:a', 1, DAY_END)).allowed).toBe(false);
    await q.giveBack('p:unknown');
  });
});
