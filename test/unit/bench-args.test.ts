import { FANOUT_DEFAULTS, QUICK_SCENARIOS, UsageError, argsOrExit, parseBenchArgs } from '../../bench/bench-args';
import { ALT_TWIN, SCENARIOS } from '../../bench/scenarios';

describe('npm run bench arguments (node:util parseArgs, strict)', () => {
  it('when no argument is given, then the full run with the soak is the default', () => {
    expect(parseBenchArgs([])).toMatchObject({ soak: true, profile: false, allocProfile: false, only: undefined, durationS: 12, warmupS: 3, rounds: 3, pin: true });
  });

  it('when --alloc-profile is given, then allocations are sampled, with or without --profile, and nothing else changes', () => {
    expect(parseBenchArgs(['--only=S1', '--alloc-profile'])).toMatchObject({ allocProfile: true, profile: false, only: new Set(['S1']), soak: false });
    expect(parseBenchArgs(['--alloc-profile', '--profile'])).toMatchObject({ allocProfile: true, profile: true, soak: true });
    expect(parseBenchArgs(['--no-alloc-profile']).allocProfile).toBe(false);
  });

  it('when --quick is given, then it includes the CAMARA hit (C1) and S1 with audit on PostgreSQL, each compared with S1', () => {
    expect(QUICK_SCENARIOS).toEqual(expect.arrayContaining(['S1', 'C1', 'S1+auditPG']));
    expect(parseBenchArgs(['--only=C1,S1+auditPG']).only).toEqual(new Set(['C1', 'S1+auditPG']));
  });

  it('when --quick is given, then B1 S1 S5 S6 run in interleaved rounds without the soak, and explicit values still win', () => {
    expect(parseBenchArgs(['--quick'])).toMatchObject({ soak: false, only: new Set(QUICK_SCENARIOS), durationS: 8, warmupS: 2, rounds: 4 });
    expect(parseBenchArgs(['--quick', '--duration=4', '--soak'])).toMatchObject({ soak: true, durationS: 4 });
  });

  it('when --only, --no-soak, --no-pin and values with or without "=" are given, then they are read', () => {
    expect(parseBenchArgs(['--only=S1,B1', '--no-pin', '--rounds', '5'])).toMatchObject({ only: new Set(['S1', 'B1']), soak: false, pin: false, rounds: 5 });
    expect(parseBenchArgs(['--no-soak']).soak).toBe(false);
  });

  it('when the soak is left out, then the reason given is the option that left it out', () => {
    expect(parseBenchArgs([]).soakOff).toBeUndefined();
    expect(parseBenchArgs(['--no-soak']).soakOff).toBe('--no-soak');
    expect(parseBenchArgs(['--only=F1']).soakOff).toBe('--only leaves it out; add --soak');
    expect(parseBenchArgs(['--quick']).soakOff).toBe('--quick leaves it out; add --soak');
    expect(parseBenchArgs(['--quick', '--no-soak']).soakOff).toBe('--no-soak');
  });

  it('when an A/B scenario is asked for, then the control pair (S5 unless --ab-control) runs with it', () => {
    expect(parseBenchArgs(['--only=S1,S1alt'])).toMatchObject({ abControl: 'S5', only: new Set(['S1', 'S1alt', 'S5', 'S5alt']) });
    expect(parseBenchArgs(['--only=S2,S2alt', '--ab-control=S1'])).toMatchObject({ abControl: 'S1', only: new Set(['S2', 'S2alt', 'S1', 'S1alt']) });
    expect(parseBenchArgs(['--only=S1,B1']).abControl).toBeUndefined();
    expect(() => parseBenchArgs(['--only=S1', '--ab-control=S5'])).toThrow(/--ab-control needs an A\/B scenario/);
    expect(() => parseBenchArgs(['--only=S1alt', '--ab-control=B1'])).toThrow(/--ab-control needs one of S1, S2, S5/);
  });

  it('when a CAMARA hit is asked for on both slots, then its twin is the same scenario on alt and the control pair runs with it', () => {
    expect(parseBenchArgs(['--only=C1,C1alt,D1,D1alt'])).toMatchObject({ abControl: 'S5', only: new Set(['C1', 'C1alt', 'D1', 'D1alt', 'S5', 'S5alt']) });
    for (const id of ['C1', 'D1', 'S1', 'S2', 'S5']) {
      const [own, twin] = [SCENARIOS.find((s) => s.id === id), SCENARIOS.find((s) => s.id === `${id}alt`)];
      expect(twin).toEqual({ ...own, id: `${id}alt`, title: `${id} on the alternative service (A/B)`, target: 'alt' });
      expect(ALT_TWIN[`${id}alt`]).toBe(id);
    }
    // M1alt's distinct numbers would take a block and move S2's (numberBase).
    expect(SCENARIOS.some((s) => s.id === 'M1alt')).toBe(false);
  });

  it.each([
    [['--secret'], /Unknown option '--secret'/],
    [['--alloc-profile=yes'], /--alloc-profile/],
    [['--duration=abc'], /--duration needs a positive number, got "abc"/],
    [['--duration'], /--duration/],
    [['--rounds=0'], /--rounds needs a positive number/],
    [['--only='], /--only needs at least one scenario id/],
    [['--only=S1,S9'], /--only: unknown scenario S9/],
    [['S1'], /positional/i],
  ])('refuses %j as a usage error', (argv, message) => {
    expect(() => parseBenchArgs(argv)).toThrow(UsageError);
    expect(() => parseBenchArgs(argv)).toThrow(message);
  });

  it('when the usage is wrong, then the usage goes to stderr with exit code 2; when --help is given, then exit code 0', () => {
    const run = (argv: string[]) => {
      const seen = { err: '', out: '', code: -1 };
      class Exit extends Error {}
      try {
        argsOrExit(argv, { err: (t) => { seen.err += t; }, out: (t) => { seen.out += t; }, exit: (code) => { seen.code = code; throw new Exit(); } });
      } catch (e) {
        if (!(e instanceof Exit)) throw e;
      }
      return seen;
    };
    const bad = run(['--secert']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/Unknown option '--secert'/);
    expect(bad.err).toMatch(/^usage: npm run bench/m);
    const help = run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^usage: npm run bench/);
    expect(run(['--quick']).code).toBe(-1);
  });
});

describe('npm run bench arguments for F1, the subscription fan-out', () => {
  it('when the run is full or --only=F1, then F1 runs with its defaults; when it is --quick, then never', () => {
    expect(parseBenchArgs([]).fanout).toEqual(FANOUT_DEFAULTS);
    expect(FANOUT_DEFAULTS).toEqual({ subscriptions: 10_000, numbers: 1_000, sinks: 10, concurrency: 64, sinkConcurrency: 4 });
    expect(parseBenchArgs(['--only=F1'])).toMatchObject({ only: new Set(['F1']), soak: false, fanout: FANOUT_DEFAULTS });
    expect(parseBenchArgs(['--quick']).fanout).toBeUndefined();
    expect(QUICK_SCENARIOS).not.toContain('F1');
    expect(parseBenchArgs(['--only=S1']).fanout).toBeUndefined();
  });

  it("when --fanout-* flags are given, then F1 takes its size and the service's delivery settings from them", () => {
    expect(parseBenchArgs(['--only=F1', '--fanout-sinks=1', '--fanout-subscriptions', '2000', '--fanout-numbers=200', '--fanout-concurrency=40', '--fanout-sink-concurrency=8']).fanout)
      .toEqual({ subscriptions: 2000, numbers: 200, sinks: 1, concurrency: 40, sinkConcurrency: 8 });
  });

  it.each([
    [['--quick', '--fanout-sinks=2'], /--fanout-sinks needs F1 in the run/],
    [['--only=S1', '--fanout-numbers=10'], /--fanout-numbers needs F1 in the run/],
    [['--only=F1', '--fanout-sinks=0'], /--fanout-sinks needs a whole number from 1 to 100, got "0"/],
    [['--only=F1', '--fanout-sinks=101'], /--fanout-sinks needs a whole number from 1 to 100/],
    [['--only=F1', '--fanout-subscriptions=1.5'], /--fanout-subscriptions needs a whole number/],
    [['--only=F1', '--fanout-concurrency=1001'], /--fanout-concurrency needs a whole number from 1 to 1000/],
    [['--only=F1', '--fanout-numbers=20', '--fanout-subscriptions=10'], /--fanout-numbers \(20\) must not exceed --fanout-subscriptions \(10\)/],
  ])('refuses %j as a usage error', (argv, message) => {
    expect(() => parseBenchArgs(argv)).toThrow(UsageError);
    expect(() => parseBenchArgs(argv)).toThrow(message);
  });
});
