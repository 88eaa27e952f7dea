/** Renders an instant as yyyy-MM-ddTHH:mm:ss±HH:MM in one IANA zone (never `Z`). */
export type OffsetDateTimeFormatter = (instant: Date) => string;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** The zone's wall clock at an instant, whole seconds. */
interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * en-US with these options formats as "MM/DD/YYYY, HH:mm:ss". Reading that one string is about
 * half the cost of formatToParts (which builds an object per field); it runs for every date an
 * answer carries (GraphQL signals: several per number). Anything else (a year before 1000, or
 * another ICU's punctuation) goes through formatToParts, so the result never depends on it.
 */
const EN_US = /^(\d{2})\/(\d{2})\/(\d{4}), (\d{2}):(\d{2}):(\d{2})$/;

/** Date.UTC reads years 0-99 as 1900-1999; these are the years themselves. */
function utcOfEarlyYear(w: Wall): number {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second);
  return d.getTime();
}

/** Throws RangeError for an unknown zone, which is how config validation detects one. */
export function createOffsetDateTimeFormatter(timeZone: string): OffsetDateTimeFormatter {
  // Built once: Intl formatters are expensive to construct and cheap to use.
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric', month: '2-digit', day: '2-digit',
    hour: '2-digit', minute: '2-digit', second: '2-digit',
  });
  const byParts = (ms: number): Wall => {
    const p: Record<string, number> = {};
    for (const part of fmt.formatToParts(ms)) {
      if (part.type !== 'literal') p[part.type] = Number(part.value);
    }
    return { year: p.year, month: p.month, day: p.day, hour: p.hour, minute: p.minute, second: p.second };
  };
  const wallAt = (ms: number): Wall => {
    const m = EN_US.exec(fmt.format(ms));
    if (m === null || m[3].charCodeAt(0) === 48 /* '0': a year before 1000 */) return byParts(ms);
    return { year: Number(m[3]), month: Number(m[1]), day: Number(m[2]), hour: Number(m[4]), minute: Number(m[5]), second: Number(m[6]) };
  };
  return (instant) => {
    const ms = Math.floor(instant.getTime() / 1000) * 1000;
    const w = wallAt(ms);
    const wallAsUtc = w.year >= 100 ? Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) : utcOfEarlyYear(w);
    const offsetMin = Math.round((wallAsUtc - ms) / 60000);
    const sign = offsetMin < 0 ? '-' : '+';
    const abs = Math.abs(offsetMin);
    return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}` +
      `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  };
}
