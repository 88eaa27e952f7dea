/** Renders an instant as yyyy-MM-ddTHH:mm:ss±HH:MM in one IANA zone (never `Z`). */
export type OffsetDateTimeFormatter = (instant: Date) => string;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
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
  return (instant) => {
    const ms = Math.floor(instant.getTime() / 1000) * 1000;
    const p: Record<string, number> = {};
    for (const part of fmt.formatToParts(ms)) {
      if (part.type !== 'literal') p[part.type] = Number(part.value);
    }
    const wallAsUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    const offsetMin = Math.round((wallAsUtc - ms) / 60000);
    const sign = offsetMin < 0 ? '-' : '+';
    const abs = Math.abs(offsetMin);
    return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}` +
      `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  };
}
