import { SoakUsageError, readSettings } from '../../scripts/soak-settings';

describe('the soak command line and settings', () => {
  it.each<[string, string[], NodeJS.ProcessEnv, RegExp]>([
    ['an option the soak does not have (settings are SOAK_* variables)', ['--seconds', '60'], {}, /Unknown option '--seconds'/],
    ['a positional argument', ['60'], {}, /Unexpected argument '60'/],
    ['a value on --help', ['--help=yes'], {}, /does not take an argument/],
    ['SOAK_RATE that is not a number', [], { SOAK_RATE: 'abc' }, /SOAK_RATE must be a number 1\.\.20000/],
    ['SOAK_REDIS that is not auto, on or off', [], { SOAK_REDIS: 'yes' }, /SOAK_REDIS must be auto, on or off/],
  ])('refuses %s as a usage error', (_name, argv, env, reason) => {
    expect(() => readSettings(argv, env, '/repo')).toThrow(SoakUsageError);
    expect(() => readSettings(argv, env, '/repo')).toThrow(reason);
  });

  it('when settings are in the environment or not, then they are read from it, with the defaults', () => {
    expect(readSettings([], { SOAK_SECONDS: '60', SOAK_REDIS: 'off' }, '/repo')).toMatchObject({ seconds: 60, rate: 200, warmupS: 20, redis: 'off' });
    expect(readSettings(['--help'], {}, '/repo')).toBe('help');
  });
});
