import { roundOrder } from '../../bench/round-order';
import { SCENARIOS } from '../../bench/scenarios';

const pick = (ids: string[]) => SCENARIOS.filter((s) => ids.includes(s.id));

/** Every slice of `rounds` rounds in the order they run. */
function run(ids: string[], rounds: number): { id: string; target: string }[] {
  const out: { id: string; target: string }[] = [];
  for (let r = 0; r < rounds; r++) out.push(...roundOrder(pick(ids), r, out.at(-1)?.target));
  return out;
}

const selfFollows = (slices: { id: string; target: string }[]) => slices.filter((s, i) => i > 0 && slices[i - 1].target === s.target).map((s) => s.id);

describe('bench round order', () => {
  it('when an A/B pair runs alone, then no slice follows one on its own server (the old rotation ran S1alt twice in a row)', () => {
    const slices = run(['S1', 'S1alt'], 4);
    expect(selfFollows(slices)).toEqual([]);
    expect(slices.map((s) => s.id)).toEqual(['S1', 'S1alt', 'S1', 'S1alt', 'S1', 'S1alt', 'S1', 'S1alt']);
  });

  it('when an A/B pair runs with its control, then service and alt alternate and each scenario runs once a round', () => {
    const slices = run(['S1', 'S1alt', 'S5', 'S5alt'], 4);
    expect(selfFollows(slices)).toEqual([]);
    for (let r = 0; r < 4; r++) expect(slices.slice(r * 4, r * 4 + 4).map((s) => s.id).sort()).toEqual(['S1', 'S1alt', 'S5', 'S5alt']);
  });

  it('when the service has more scenarios than the other servers together, then the slices after their own server change from round to round', () => {
    const ids = SCENARIOS.filter((s) => s.interleaved && s.target !== 'alt').map((s) => s.id);
    const perRound = [0, 1, 2].map((r) => selfFollows(run(ids, r + 1).slice(r * ids.length)));
    expect(new Set(perRound.map((x) => x.join(' '))).size).toBe(3);
    for (const r of perRound) expect(r.length).toBeLessThanOrEqual(2);
  });
});
