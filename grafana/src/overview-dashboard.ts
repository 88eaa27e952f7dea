import { Builder } from '@grafana/grafana-foundation-sdk/cog';
import * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import { auditPanels } from './overview/audit';
import { kycMatchPanels } from './overview/kyc-match';
import { partnerPanels } from './overview/partners';
import { processPanels } from './overview/process';
import { serviceLevelPanels } from './overview/service-level';
import { signalPanels } from './overview/signals';
import { trafficPanels } from './overview/traffic';
import { upstreamPanels } from './overview/upstreams';
import { webhookPanels } from './overview/webhooks';
import { DATASOURCE } from './panel-kit';

const ROWS = [
  { title: 'Service level', panels: serviceLevelPanels },
  { title: 'Traffic: rate, errors, duration', panels: trafficPanels },
  { title: 'Upstreams: HLR, SIM management and customer records', panels: upstreamPanels },
  { title: 'Cache, txn_id, authentication, rate limits, state store', panels: partnerPanels },
  { title: 'Webhooks: SIM swap subscriptions', panels: webhookPanels },
  { title: 'Process', panels: processPanels },
  // Last, so the panel ids of the rows above stay what links already point to.
  { title: 'Audit trail', panels: auditPanels },
  { title: 'Fraud and identity signals: Device Swap, Call Forwarding, Number Recycling', panels: signalPanels },
  // After the audit trail for the same reason: added later, it takes the next ids.
  { title: 'KYC Match and customer records', panels: kycMatchPanels },
];

function variables(): Builder<dashboard.VariableModel>[] {
  const datasource = new dashboard.DatasourceVariableBuilder('datasource')
    .label('Data source')
    .type('prometheus');
  // label_values over a verify_* series: zero-initialised at start, so every instance lists
  // from its first scrape, and other Node services in the same Prometheus never appear.
  const job = new dashboard.QueryVariableBuilder('job')
    .label('Job')
    .datasource(DATASOURCE)
    .query('label_values(verify_requests_total, job)')
    .definition('label_values(verify_requests_total, job)')
    .refresh(dashboard.VariableRefresh.OnTimeRangeChanged)
    .sort(dashboard.VariableSort.AlphabeticalAsc);
  const instance = new dashboard.QueryVariableBuilder('instance')
    .label('Instance')
    .datasource(DATASOURCE)
    .query('label_values(verify_requests_total{job=~"$job"}, instance)')
    .definition('label_values(verify_requests_total{job=~"$job"}, instance)')
    .refresh(dashboard.VariableRefresh.OnTimeRangeChanged)
    .sort(dashboard.VariableSort.AlphabeticalAsc)
    .multi(true)
    .includeAll(true)
    .allValue('.*')
    .current({ text: 'All', value: '$__all', selected: true });
  return [datasource, job, instance];
}

/** The one dashboard an SRE opens first: served? how fast? which upstream hurts? */
export function overviewDashboard(): dashboard.Dashboard {
  const d = new dashboard.DashboardBuilder('verify-customer / Overview')
    .uid('verify-customer-overview')
    .description('KYC and SIM-swap verification: partner traffic, errors and latency, upstreams and circuit breakers, cache, txn_id, authentication, rate limits, Redis and the Node process. Alerts and runbooks: docs/observability.md.')
    .tags(['verify-customer'])
    .editable()
    .refresh('30s')
    .time({ from: 'now-3h', to: 'now' })
    .timezone('browser')
    .tooltip(dashboard.DashboardCursorSync.Crosshair);
  for (const v of variables()) d.withVariable(v);
  let id = 0;
  for (const row of ROWS) {
    d.withRow(new dashboard.RowBuilder(row.title).id(++id));
    for (const panel of row.panels()) {
      // Stable ids keep links to a panel (viewPanel=N) valid across regenerations.
      d.withPanel({ build: () => ({ ...panel.build(), id: ++id }) });
    }
  }
  return d.build();
}
