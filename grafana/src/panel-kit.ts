import * as common from '@grafana/grafana-foundation-sdk/common';
import * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import { DataqueryBuilder } from '@grafana/grafana-foundation-sdk/prometheus';
import * as stat from '@grafana/grafana-foundation-sdk/stat';
import * as statetimeline from '@grafana/grafana-foundation-sdk/statetimeline';
import * as timeseries from '@grafana/grafana-foundation-sdk/timeseries';

/**
 * The few shapes every verify-customer panel is built from. Each helper takes a unit and a
 * description as required arguments: the dashboard promises both on every panel, and a
 * required parameter is a promise the compiler keeps.
 */

/** Panels follow the dashboard's datasource variable, so any Prometheus holding the series works. */
export const DATASOURCE: dashboard.DataSourceRef = { type: 'prometheus', uid: '${datasource}' };

/** Series of the selected job and instances; `extra` adds matchers such as `code="9999"`. */
export function sel(extra = ''): string {
  return `{job=~"$job", instance=~"$instance"${extra ? `, ${extra}` : ''}}`;
}

export interface Target {
  expr: string;
  legend: string;
}

export interface PanelSpec {
  title: string;
  description: string;
  unit: string;
  targets: Target[];
  /** Width in grid columns (24 is the full width) and height in rows. */
  span?: number;
  height?: number;
}

const REF_IDS = 'ABCDEFGHIJ';

function queries(targets: Target[]): DataqueryBuilder[] {
  return targets.map((t, i) => new DataqueryBuilder()
    .refId(REF_IDS[i] ?? `Q${i}`)
    .datasource(DATASOURCE)
    .expr(t.expr)
    .legendFormat(t.legend)
    .range());
}

function thresholds(steps: Array<[number | null, string]>): dashboard.ThresholdsConfigBuilder {
  return new dashboard.ThresholdsConfigBuilder()
    .mode(dashboard.ThresholdsMode.Absolute)
    .steps(steps.map(([value, color]) => ({ value, color })));
}

/** A time series with a table legend (so the last and max values are readable without hovering). */
export function series(spec: PanelSpec & { threshold?: number; stack?: boolean }): timeseries.PanelBuilder {
  const p = new timeseries.PanelBuilder()
    .title(spec.title)
    .description(spec.description)
    .datasource(DATASOURCE)
    .unit(spec.unit)
    .min(0)
    .span(spec.span ?? 12)
    .height(spec.height ?? 8)
    .fillOpacity(10)
    .legend(new common.VizLegendOptionsBuilder()
      .showLegend(true)
      .displayMode(common.LegendDisplayMode.Table)
      .placement(common.LegendPlacement.Bottom)
      .calcs(['lastNotNull', 'max']))
    .tooltip(new common.VizTooltipOptionsBuilder().mode(common.TooltipDisplayMode.Multi).sort(common.SortOrder.Descending));
  for (const q of queries(spec.targets)) p.withTarget(q);
  if (spec.stack) p.stacking(new common.StackingConfigBuilder().mode(common.StackingMode.Normal));
  if (spec.threshold !== undefined) {
    // The objective drawn as a dashed line, so "above the line" needs no legend.
    p.thresholds(thresholds([[null, 'green'], [spec.threshold, 'red']]))
      .thresholdsStyle(new common.GraphThresholdsStyleConfigBuilder().mode(common.GraphThresholdsStyleMode.Dashed));
  }
  return p;
}

/** One number, coloured against its objective; `steps` are [from, colour] pairs. */
export function single(spec: PanelSpec & { steps: Array<[number | null, string]>; decimals?: number }): stat.PanelBuilder {
  const p = new stat.PanelBuilder()
    .title(spec.title)
    .description(spec.description)
    .datasource(DATASOURCE)
    .unit(spec.unit)
    .span(spec.span ?? 4)
    .height(spec.height ?? 4)
    .thresholds(thresholds(spec.steps))
    .colorMode(common.BigValueColorMode.Background)
    .graphMode(common.BigValueGraphMode.Area)
    .reduceOptions(new common.ReduceDataOptionsBuilder().calcs(['lastNotNull']).values(false));
  if (spec.decimals !== undefined) p.decimals(spec.decimals);
  for (const q of queries(spec.targets)) p.withTarget(q);
  return p;
}

/** Named states over time: `states` maps each value the query yields to a label and colour. */
export function states(spec: PanelSpec & { states: Record<string, [string, string]> }): statetimeline.PanelBuilder {
  const options: Record<string, dashboard.ValueMappingResult> = {};
  Object.entries(spec.states).forEach(([value, [text, color]], index) => {
    options[value] = { text, color, index };
  });
  const p = new statetimeline.PanelBuilder()
    .title(spec.title)
    .description(spec.description)
    .datasource(DATASOURCE)
    .unit(spec.unit)
    .span(spec.span ?? 12)
    .height(spec.height ?? 8)
    .showValue(common.VisibilityMode.Never)
    .mergeValues(true)
    .mappings([{ type: dashboard.MappingType.ValueToText, options }]);
  for (const q of queries(spec.targets)) p.withTarget(q);
  return p;
}

/** p50, p95 and p99 of a histogram, by the given labels. */
export function quantiles(bucket: string, by: string, legend: string): Target[] {
  return [0.5, 0.95, 0.99].map((q) => ({
    expr: `histogram_quantile(${q}, sum by (le, ${by}) (rate(${bucket}${sel()}[$__rate_interval])))`,
    legend: `p${Math.round(q * 100)} ${legend}`,
  }));
}
