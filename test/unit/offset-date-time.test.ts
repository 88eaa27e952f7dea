import { createOffsetDateTimeFormatter } from '../../src/kernel/offset-date-time';

describe('offset date-time rendering', () => {
  const instant = new Date('2026-11-20T08:15:42.999Z');

  it.each([
    ['UTC', '2026-11-20T08:15:42+00:00'],
    ['Africa/Dar_es_Salaam', '2026-11-20T11:15:42+03:00'],
    ['Asia/Kathmandu', '2026-11-20T14:00:42+05:45'],
    ['America/New_York', '2026-11-20T03:15:42-05:00'],
  ])('%s renders %s (whole seconds, numeric offset, never Z)', (zone, expected) => {
    expect(createOffsetDateTimeFormatter(zone)(instant)).toBe(expected);
  });

  it('when daylight saving is in force, then the offset follows it', () => {
    expect(createOffsetDateTimeFormatter('America/New_York')(new Date('2026-07-01T12:00:00Z'))).toBe('2026-07-01T08:00:00-04:00');
  });

  it('when it is midnight, then the hour renders as 00, not 24', () => {
    expect(createOffsetDateTimeFormatter('UTC')(new Date('2026-11-20T00:00:05Z'))).toBe('2026-11-20T00:00:05+00:00');
  });

  it('when the zone is unknown, then it throws', () => {
    expect(() => createOffsetDateTimeFormatter('Mars/Olympus')).toThrow(RangeError);
  });
});
