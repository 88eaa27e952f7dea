/*
 * The one RFC 3339 date-time parser (section 5.6, with a time zone). Each field is checked
 * against the calendar before any instant is computed: Date.parse rolls 30 February into
 * March and gives NaN for a leap second (second 60), and a NaN that reaches a stored record
 * never compares as expired.
 */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * The instant in ms since the epoch, or undefined for anything that is not a real RFC 3339
 * date-time with a zone: no second 60 (an instant JavaScript cannot represent), no month 13,
 * no 30 February, offsets within ±23:59.
 */
export function parseRfc3339(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const oh = Number(m[9] ?? 0);
  const om = Number(m[10] ?? 0);
  // Day 0 of the next month is the last day of this one.
  const daysInMonth = new Date(Date.UTC(2000, mo, 0)).getUTCDate() - (mo === 2 && !isLeap(y) ? 1 : 0);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth || h > 23 || mi > 59 || s > 59 || oh > 23 || om > 59) return undefined;
  const at = new Date(0);
  const ms = Math.floor(Number(`0.${m[7] ?? '0'}`) * 1000);
  at.setUTCFullYear(y, mo - 1, d);
  at.setUTCHours(h, mi, s, ms);
  const offsetMs = (m[8] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  const instant = at.getTime() - offsetMs;
  return Number.isFinite(instant) ? instant : undefined;
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** The instant of a date-time that was checked on the way in (a stored value); throws RangeError otherwise. */
export function instantOf(text: string): number {
  const ms = parseRfc3339(text);
  if (ms === undefined) throw new RangeError('not an RFC 3339 date-time with a time zone');
  return ms;
}
