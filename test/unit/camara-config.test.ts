import { ConfigError, loadConfig } from '../../src/config/config';

describe('SIM_SWAP_MONITORED_DAYS (CAMARA monitored period)', () => {
  it('is unset (unlimited history) by default', () => {
    expect(loadConfig({}).SIM_SWAP_MONITORED_DAYS).toBeUndefined();
    expect(loadConfig({ SIM_SWAP_MONITORED_DAYS: '' }).SIM_SWAP_MONITORED_DAYS).toBeUndefined();
  });

  it('takes a whole number of days', () => {
    expect(loadConfig({ SIM_SWAP_MONITORED_DAYS: '30' }).SIM_SWAP_MONITORED_DAYS).toBe(30);
  });

  it.each(['0', '-1', '1.5', 'thirty', '36501'])('refuses %p, naming the variable', (v) => {
    expect(() => loadConfig({ SIM_SWAP_MONITORED_DAYS: v })).toThrow(ConfigError);
    expect(() => loadConfig({ SIM_SWAP_MONITORED_DAYS: v })).toThrow(/SIM_SWAP_MONITORED_DAYS/);
  });
});
