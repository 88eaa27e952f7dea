import { ConfigError, loadConfig } from '../../src/config/config';

describe('SIM_SWAP_MONITORED_DAYS (CAMARA monitored period)', () => {
  it('when it is not set, then the history is unlimited', () => {
    expect(loadConfig({}).SIM_SWAP_MONITORED_DAYS).toBeUndefined();
    expect(loadConfig({ SIM_SWAP_MONITORED_DAYS: '' }).SIM_SWAP_MONITORED_DAYS).toBeUndefined();
  });

  it('when it is a whole number of days, then it is taken', () => {
    expect(loadConfig({ SIM_SWAP_MONITORED_DAYS: '30' }).SIM_SWAP_MONITORED_DAYS).toBe(30);
  });

  it.each(['0', '-1', '1.5', 'thirty', '36501'])('when it is %p, then it is refused, naming the variable', (v) => {
    expect(() => loadConfig({ SIM_SWAP_MONITORED_DAYS: v })).toThrow(ConfigError);
    expect(() => loadConfig({ SIM_SWAP_MONITORED_DAYS: v })).toThrow(/SIM_SWAP_MONITORED_DAYS/);
  });
});
