import { Builder } from '@grafana/grafana-foundation-sdk/cog';
import { Panel } from '@grafana/grafana-foundation-sdk/dashboard';
import { sel, series, states } from '../panel-kit';

/** Is every answered verification reaching the audit store (docs/audit.md)? */
export function auditPanels(): Builder<Panel>[] {
  return [
    series({
      title: 'Audit records by outcome',
      description: 'Audit records per second: written to the store, spooled (the store was down or slow; kept in the local spool under AUDIT_DIR), replayed (from the spool into the store once it returned), dropped (lost: neither store nor spool could take them; VerifyAuditRecordsDropped). Spooled should equal replayed over an outage.',
      unit: 'reqps',
      targets: [{ expr: `sum by (outcome) (rate(verify_audit_records_total${sel()}[$__rate_interval]))`, legend: '{{outcome}}' }],
    }),
    series({
      title: 'Audit backlog: memory buffer and spool',
      description: 'Records in memory awaiting a write (bounded by AUDIT_BUFFER_MAX), and bytes in the local spool awaiting replay. A spool that keeps growing means the audit store is still unreachable.',
      unit: 'short',
      targets: [
        { expr: `sum by (instance) (verify_audit_buffered_records${sel()})`, legend: '{{instance}} buffered records' },
        { expr: `sum by (instance) (verify_audit_spool_bytes${sel()})`, legend: '{{instance}} spool bytes' },
      ],
    }),
    states({
      title: 'Audit store by instance',
      description: 'ok: records reach the audit store (PostgreSQL or the JSON-lines files). degraded: they go to the local spool (VerifyAuditStoreDegraded); with AUDIT_FAIL_CLOSED=true the instance answers 503 meanwhile.',
      unit: 'none',
      states: { 0: ['ok', 'green'], 1: ['degraded', 'red'] },
      targets: [{ expr: `max by (instance) (verify_audit_degraded${sel()})`, legend: '{{instance}}' }],
    }),
  ];
}
