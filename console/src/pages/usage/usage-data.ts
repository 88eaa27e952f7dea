import type { Schemas } from '../../api/client';
import type { Series } from '../../components/time-chart';
import { operationLabel } from '../../format';

type Usage = Schemas['Usage'];

/** Every bucket start from `from` to `to` (exclusive), so that quiet hours plot as zero, not as a gap. */
export function bucketStarts(usage: Usage): number[] {
  const step = usage.interval === 'hour' ? 3600_000 : 86400_000;
  const from = Date.parse(usage.from);
  const first = from - (from % step);
  const starts: number[] = [];
  for (let t = first; t < Date.parse(usage.to) && starts.length < 2000; t += step) starts.push(t);
  return starts;
}

/** One line per partner and operation, summed over outcomes. */
export function usageSeries(usage: Usage): { times: number[]; series: Series[] } {
  const starts = bucketStarts(usage);
  const index = new Map(starts.map((t, i) => [t, i]));
  const lines = new Map<string, number[]>();
  for (const r of usage.rows) {
    const key = `${r.partner} · ${operationLabel(r.operation)}`;
    let values = lines.get(key);
    if (!values) lines.set(key, (values = starts.map(() => 0)));
    const i = index.get(Date.parse(r.start));
    if (i !== undefined) values[i] += r.count;
  }
  return { times: starts.map((t) => t / 1000), series: [...lines].sort(([a], [b]) => a.localeCompare(b)).map(([label, values]) => ({ label, values })) };
}

export interface UsageTotal { partner: string; operation: string; answered: number; refused: number; replayed: number }

/** The table beside the chart: per partner and operation, answered (HTTP < 400) and refused. */
export function usageTotals(usage: Usage): UsageTotal[] {
  const totals = new Map<string, UsageTotal>();
  for (const r of usage.rows) {
    const key = `${r.partner}\u0000${r.operation}`;
    const t = totals.get(key) ?? { partner: r.partner, operation: r.operation, answered: 0, refused: 0, replayed: 0 };
    if (r.httpStatus < 400) t.answered += r.count;
    else t.refused += r.count;
    t.replayed += r.replayed;
    totals.set(key, t);
  }
  return [...totals.values()].sort((a, b) => a.partner.localeCompare(b.partner) || a.operation.localeCompare(b.operation));
}

function csvCell(v: string | number): string {
  const s = String(v);
  // A leading =, +, - or @ would be a formula to a spreadsheet (CSV injection): quote it with a '.
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The rows as the CLI's `usage --csv` writes them, with the bucket's start first. */
export function usageCsv(usage: Usage): string {
  const header = ['start', 'partner', 'operation', 'code', 'http_status', 'count', 'replayed'];
  const lines = usage.rows.map((r) => [r.start, r.partner, r.operation, r.code, r.httpStatus, r.count, r.replayed].map(csvCell).join(','));
  return [header.join(','), ...lines].join('\r\n') + '\r\n';
}
