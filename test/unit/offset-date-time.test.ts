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

  it('when instants span centuries, zones and their transitions, then every rendering is the one formatToParts gives', () => {
    const zones = ['UTC', 'Africa/Dar_es_Salaam', 'Asia/Kathmandu', 'America/St_Johns', 'Australia/Lord_Howe', 'Europe/Amsterdam', 'Pacific/Chatham', 'America/New_York'];
    const two = (n: number) => String(n).padStart(2, '0');
    const referenceFor = (zone: string) => {
      const fmt = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
      return (instant: Date) => {
        const ms = Math.floor(instant.getTime() / 1000) * 1000;
        const p: Record<string, number> = {};
        for (const part of fmt.formatToParts(ms)) if (part.type !== 'literal') p[part.type] = Number(part.value);
        const wall = new Date(0);
        wall.setUTCFullYear(p.year, p.month - 1, p.day);
        wall.setUTCHours(p.hour, p.minute, p.second);
        const offsetMin = Math.round((wall.getTime() - ms) / 60000);
        return `${String(p.year).padStart(4, '0')}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}:${two(p.second)}`
          + `${offsetMin < 0 ? '-' : '+'}${two(Math.floor(Math.abs(offsetMin) / 60))}:${two(Math.abs(offsetMin) % 60)}`;
      };
    };
    // Every 123 h 22 min 9 s from 1950 to 2040 (so each DST rule of these zones has instants on
    // both sides of a change somewhere), the seconds either side of two 2026 changes, and years 1000 to 1949.
    const instants: Date[] = [];
    for (let ms = Date.UTC(1950, 0, 1); ms < Date.UTC(2040, 0, 1); ms += 444_129_000) instants.push(new Date(ms));
    for (let year = 1000; year < 1950; year += 37) instants.push(new Date(Date.UTC(year, 5, 15, 12, 30, 45)));
    instants.push(new Date(Date.UTC(2026, 2, 8, 7, 0, 0)), new Date(Date.UTC(2026, 2, 8, 6, 59, 59)), new Date(Date.UTC(2026, 3, 4, 14, 59, 59)), new Date(Date.UTC(2026, 3, 4, 15, 0, 0)));
    const mismatches: string[] = [];
    let compared = 0;
    for (const zone of zones) {
      const format = createOffsetDateTimeFormatter(zone);
      const reference = referenceFor(zone);
      for (const instant of instants) {
        const [got, want] = [format(instant), reference(instant)];
        if (got !== want) mismatches.push(`${zone} ${instant.toISOString()}: ${got} != ${want}`);
        compared++;
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    expect(compared).toBeGreaterThan(8 * 1_800);
  });

  it.each([999, 99, 1])('when the year is %i, then it renders with four digits and a zero offset in UTC', (year) => {
    const instant = new Date(Date.UTC(2000, 0, 2, 3, 4, 5));
    instant.setUTCFullYear(year);
    expect(createOffsetDateTimeFormatter('UTC')(instant)).toBe(`${String(year).padStart(4, '0')}-01-02T03:04:05+00:00`);
  });
});
