import { abRatios } from '../../bench/ab-control';
import { ScenarioResult, cpuUsPerRequest, evaluateTargets, ratioTarget, targetsTable } from '../../bench/report';

/** A measured scenario: `rps` requests a second at `cpuPct` % of one core (so 1e4 * cpuPct / rps µs per request). */
function result(id: string, rps: number, cpuPct: number): ScenarioResult {
  return {
    id, title: id, connections: 32, rps, serverCpuPct: cpuPct, peakRssMb: 100, requests: rps, durationS: 1, p50Ms: 1, p99Ms: 2, maxMs: 3,
    errors: 0, non2xx: 0, unexpected: 0, statusCounts: {}, loadgenCpuPct: 50,
  };
}

describe('bench target table: throughput and per-server-CPU ratios', () => {
  it('when S1 got half the CPU B1 got, then the throughput ratio misses but the CPU ratio (judged) meets the goal', () => {
    // S1: 4,000 req/s at 40 % = 100 µs/req; B1: 8,000 req/s at 96 % = 120 µs/req.
    const t = ratioTarget('S1 / B1', result('S1', 4000, 40), result('B1', 8000, 96), '>= 0.80', (x) => x >= 0.8);
    expect(t).toMatchObject({ value: '0.50', cpu: '1.20 (100 / 120 µs)', met: true, throughputMet: false });
  });

  it('when a scenario ran in rounds, then its CPU per request is the median round\'s, not the mean CPU over the median req/s', () => {
    const s1 = { ...result('S1', 2124, 38), cpuUsRounds: [220, 153, 162] };
    expect(cpuUsPerRequest(s1)).toBe(162);
    expect(cpuUsPerRequest(result('S4', 100, 50))).toBe(5000);
  });

  it('when a side is missing, then both ratios are "-" and nothing is judged', () => {
    expect(ratioTarget('S1 / B1', result('S1', 4000, 40), undefined, '>= 0.80', (x) => x >= 0.8)).toMatchObject({ value: '-', cpu: '-', met: null, throughputMet: null });
  });

  it('when the table is printed, then every ratio target has both columns and the soak row says why it did not run', () => {
    const targets = evaluateTargets([result('S1', 4000, 40), result('B1', 8000, 96)], undefined, undefined, undefined, '--only leaves it out; add --soak');
    const text = targetsTable(targets);
    expect(text).toMatch(/S1 \/ B1 +\| +0\.50 \| +1\.20 \(100 \/ 120 µs\) \| +>= 0\.80 \| +met \| +MISSED \|/);
    expect(text).toContain('not run (--only leaves it out; add --soak)');
    expect(text).not.toContain('--no-soak');
  });
});

describe('A/B control-corrected ratios', () => {
  it('when the alt slot measures 1.2x on the control too, then the corrected ratio is 1 round by round', () => {
    const rounds = new Map<string, ScenarioResult[]>([
      ['S1', [result('S1', 1000, 50), result('S1', 2000, 50)]],
      ['S1alt', [result('S1alt', 1200, 50), result('S1alt', 2400, 50)]],
      ['S5', [result('S5', 500, 50), result('S5', 800, 50)]],
      ['S5alt', [result('S5alt', 600, 50), result('S5alt', 960, 50)]],
    ]);
    const [ab] = abRatios(rounds, 'S5');
    expect(ab).toMatchObject({ alt: 'S1alt', twin: 'S1', control: 'S5alt / S5' });
    expect(ab.rps.raw).toBeCloseTo(1.2);
    expect(ab.rps.control).toBeCloseTo(1.2);
    expect(ab.rps.corrected).toBeCloseTo(1);
    expect(ab.rps.rounds).toEqual([1, 1]);
    expect(ab.cpu.corrected).toBeCloseTo(1);
  });

  it('when the control pair did not run, then nothing is corrected', () => {
    expect(abRatios(new Map([['S1', [result('S1', 1, 1)]], ['S1alt', [result('S1alt', 1, 1)]]]), 'S5')).toEqual([]);
  });
});
