import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

export interface Series {
  label: string;
  values: number[];
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Axis ticks in UTC and 24-hour time, as incidents are discussed: "14:00", and the date at midnight ("28 Nov"). */
function utcTick(seconds: number): string {
  const d = new Date(seconds * 1000);
  const hm = `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  return hm === '00:00' ? `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}` : hm;
}

/** Tick steps: whole hours and whole days only (a count per bucket has no finer grain). */
const TIME_INCRS = [3600, 2 * 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 2 * 86400, 7 * 86400, 14 * 86400, 28 * 86400];

/** Distinct on white and for the common colour-vision deficiencies (Okabe–Ito). */
const COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000', '#8c6d1f'];

/**
 * A line chart over time (uPlot, drawn on a canvas). The canvas says nothing to a screen
 * reader: the figure is labelled with its caption and the page shows the same numbers in a
 * table beside it.
 */
export function TimeChart(props: { caption: string; times: number[]; series: Series[]; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const opts: uPlot.Options = {
      width: Math.max(el.clientWidth, 200),
      height: props.height ?? 220,
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      // Counts: from zero, and a quiet period keeps a small scale rather than uPlot's 0-100.
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(5, Math.ceil(max * 1.1))] } },
      axes: [
        { stroke: '#4a5568', grid: { stroke: '#edf0f4' }, ticks: { stroke: '#d5dbe3' }, incrs: TIME_INCRS, space: 56,
          values: (_u, ticks) => ticks.map(utcTick) },
        { stroke: '#4a5568', grid: { stroke: '#edf0f4' }, ticks: { stroke: '#d5dbe3' }, size: 48,
          values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? String(t) : '')) },
      ],
      series: [
        { label: 'time (UTC)', value: (_u, v) => (v == null ? '' : new Date(v * 1000).toISOString().slice(0, 16).replace('T', ' ')) },
        ...props.series.map((s, i) => ({
          label: s.label,
          stroke: COLOURS[i % COLOURS.length],
          width: 2,
          points: { show: props.times.length < 40 },
        })),
      ],
    };
    // Ticks fall on UTC hours and days whatever the browser's own zone.
    opts.tzDate = (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC');
    const chart = new uPlot(opts, [props.times, ...props.series.map((s) => s.values)] as uPlot.AlignedData, el);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(el.clientWidth, 200), height: props.height ?? 220 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [props.times, props.series, props.height]);
  return (
    <figure class="chart" aria-label={props.caption}>
      <figcaption>{props.caption}</figcaption>
      {props.series.length === 0 || props.times.length === 0
        ? <p class="muted empty">Nothing answered in this period.</p>
        : <div ref={box} role="img" aria-label={`${props.caption}: ${props.series.map((s) => `${s.label} ${s.values.reduce((a, b) => a + b, 0)}`).join(', ')}`} />}
    </figure>
  );
}
