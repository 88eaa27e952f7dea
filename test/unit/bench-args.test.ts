import { QUICK_SCENARIOS, UsageError, argsOrExit, parseBenchArgs } from '../../bench/bench-args';

describe('npm run bench arguments (node:util parseArgs, strict)', () => {
  it('defaults to the full run with the soak', () => {
    expect(parseBenchArgs([])).toMatchObject({ soak: true, profile: false, only: undefined, durationS: 12, warmupS: 3, rounds: 3, pin: true });
  });

  it('--quick includes the CAMARA hit (C1) and S1 with audit on PostgreSQL, each compared with S1', () => {
    expect(QUICK_SCENARIOS).toEqual(expect.arrayContaining(['S1', 'C1', 'S1+auditPG']));
    expect(parseBenchArgs(['--only=C1,S1+auditPG']).only).toEqual(new Set(['C1', 'S1+auditPG']));
  });

  it('--quick runs B1 S1 S5 S6 in interleaved rounds without the soak; explicit values still win', () => {
    expect(parseBenchArgs(['--quick'])).toMatchObject({ soak: false, only: new Set(QUICK_SCENARIOS), durationS: 8, warmupS: 2, rounds: 4 });
    expect(parseBenchArgs(['--quick', '--duration=4', '--soak'])).toMatchObject({ soak: true, durationS: 4 });
  });

  it('reads --only, --no-soak, --no-pin and values given with or without "="', () => {
    expect(parseBenchArgs(['--only=S1,B1', '--no-pin', '--rounds', '5'])).toMatchObject({ only: new Set(['S1', 'B1']), soak: false, pin: false, rounds: 5 });
    expect(parseBenchArgs(['--no-soak']).soak).toBe(false);
  });

  it.each([
    [['--secret'], /Unknown option '--secret'/],
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

  it('answers a usage error with the usage on stderr and exit code 2, and --help with exit code 0', () => {
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
