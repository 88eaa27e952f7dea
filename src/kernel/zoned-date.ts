/** Calendar dates (YYYY-MM-DD) in one IANA zone: where a day starts, and which day it is now. */
export interface ZonedCalendar {
  /** The instant (ms) the given full-date begins in the zone. */
  startOfDayMs(date: string): number;
  /** Today's date in the zone at the given instant, as YYYY-MM-DD. */
  dateAt(instantMs: number): string;
}

const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** y, m, d of an RFC 3339 full-date that names a real calendar day; undefined otherwise. */
export function parseFullDate(text: string): [number, number, number] | undefined {
  const m = FULL_DATE.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return undefined;
  if (d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return undefined;
  return [y, mo, d];
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Throws RangeError for an unknown zone. */
export function createZonedCalendar(timeZone: string): ZonedCalendar {
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23',
    year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  });
  const wall = (ms: number) => {
    const p: Record<string, number> = {};
    for (const part of fmt.formatToParts(ms)) if (part.type !== 'literal') p[part.type] = Number(part.value);
    return p;
  };
  /** Offset of the zone from UTC at an instant, in ms (wall clock minus UTC). */
  const offsetAt = (ms: number) => {
    const p = wall(ms);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
  };
  return {
    startOfDayMs(date) {
      const ymd = parseFullDate(date);
      if (!ymd) throw new RangeError(`not a full-date: ${date}`);
      const midnightAsUtc = Date.UTC(ymd[0], ymd[1] - 1, ymd[2]);
      // Two rounds settle the offset around a DST change; a day whose midnight does not exist
      // (a spring-forward at 00:00) starts at the first instant after the gap.
      let guess = midnightAsUtc - offsetAt(midnightAsUtc);
      guess = midnightAsUtc - offsetAt(guess);
      const p = wall(guess);
      const sameDay = p.year === ymd[0] && p.month === ymd[1] && p.day === ymd[2];
      if (!sameDay && Date.UTC(p.year, p.month - 1, p.day) < midnightAsUtc) {
        guess += (24 - p.hour) * 3_600_000 - p.minute * 60_000 - p.second * 1000;
      }
      return guess;
    },
    dateAt(instantMs) {
      const p = wall(instantMs);
      return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
    },
  };
}
