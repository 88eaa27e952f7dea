import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

export interface Series {
  label: string;
  values: number[];
}

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
      scales: { x: { time: true } },
      axes: [
        { stroke: '#4a5568', grid: { stroke: '#edf0f4' }, ticks: { stroke: '#d5dbe3' } },
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
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    };
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
