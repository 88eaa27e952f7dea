import { ChangeDate, changeDateBody } from '../../src/camara/change-date';
import { OutOfRangeError } from '../../src/errors/domain-errors';

/* SIM Swap's and Device Swap's two questions of one date, with and without a monitored period. */

const H = 3_600_000;
const NOW = 1_700_000_000_000;

function changes(latest: Record<string, number | null>, monitoredDays?: number): ChangeDate {
  return new ChangeDate({
    clock: { nowMs: () => NOW },
    ...(monitoredDays === undefined ? {} : { monitoredDays }),
    tooLong: (days) => `beyond ${days} days`,
    latest: async (msisdn) => latest[msisdn] ?? null,
  });
}

describe('ChangeDate', () => {
  it('when the change is older than the monitored period, then retrieve-date sees null and the period; else the date', async () => {
    const dates = changes({ old: NOW - 49 * H, recent: NOW - 47 * H }, 2);
    await expect(dates.seen('old')).resolves.toEqual({ latestMs: null, monitoredPeriodDays: 2 });
    await expect(dates.seen('recent')).resolves.toEqual({ latestMs: NOW - 47 * H });
    await expect(changes({ old: NOW - 49 * H }).seen('old')).resolves.toEqual({ latestMs: NOW - 49 * H });
  });

  it('when maxAge is absent, then 240 h shortened to the period; above the period, the API\'s words as OUT_OF_RANGE', () => {
    expect(changes({}).lookBackHours(undefined)).toBe(240);
    expect(changes({}, 2).lookBackHours(undefined)).toBe(48);
    expect(changes({}, 20).lookBackHours(undefined)).toBe(240);
    expect(changes({}, 2).lookBackHours(12)).toBe(12);
    expect(() => changes({}, 2).lookBackHours(49)).toThrow(new OutOfRangeError('beyond 2 days'));
  });

  it('when the latest change lies within the look-back, then changed; none known (null) is never a change', async () => {
    const dates = changes({ recent: NOW - 24 * H, none: null });
    await expect(dates.changedWithin('recent', 24)).resolves.toBe(true);
    await expect(dates.changedWithin('recent', 23)).resolves.toBe(false);
    await expect(dates.changedWithin('none', 2400)).resolves.toBe(false);
  });
});

describe('changeDateBody', () => {
  const iso = (d: Date) => d.toISOString();
  it('when the change is seen, then the field carries its date and no monitoredPeriod; when hidden by the period, null and the period', () => {
    expect(changeDateBody('latestSimChange', { latestMs: NOW }, iso)).toEqual({ latestSimChange: new Date(NOW).toISOString() });
    expect(changeDateBody('latestDeviceChange', { latestMs: null, monitoredPeriodDays: 2 }, iso)).toEqual({ latestDeviceChange: null, monitoredPeriod: 2 });
  });
});
