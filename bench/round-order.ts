/**
 * The order of one interleaved round. A server measured right after it ran itself is warmer than one
 * that sat idle while others ran (docs/performance.md, "A/B runs"), so a slice follows a slice on
 * another server whenever one is left. Each round starts one scenario later, and the scenarios of
 * one server take turns, one place later each round, so the slices that must follow their own server
 * (more scenarios on the service than on all other servers together) are not always the same ones.
 */
export function roundOrder<T extends { id: string; target: string }>(scenarios: readonly T[], round: number, lastTarget?: string): T[] {
  const rotated = scenarios.map((_, i) => scenarios[(i + round) % scenarios.length]);
  const queues = new Map<string, T[]>();
  for (const s of scenarios) queues.set(s.target, [...(queues.get(s.target) ?? []), s]);
  for (const [target, q] of queues) queues.set(target, q.map((_, i) => q[(i + round) % q.length]));
  // Targets in the order the rotation first meets them.
  const targets = [...new Set(rotated.map((s) => s.target))];
  const out: T[] = [];
  let last = lastTarget;
  while (out.length < scenarios.length) {
    const left = (t: string) => queues.get(t)?.length ?? 0;
    const total = targets.reduce((n, t) => n + left(t), 0);
    const open = targets.filter((t) => left(t) > 0);
    const others = open.filter((t) => t !== last);
    // The server with the most slices left goes first when it has no fewer than all the others together.
    const most = open.reduce((a, t) => (left(t) > left(a) ? t : a), open[0]);
    const pick = others.length === 0 ? open[0] : most !== last && left(most) * 2 >= total ? most : others[0];
    out.push((queues.get(pick) as T[]).shift() as T);
    last = pick;
  }
  return out;
}
