import { Counter, Gauge, Registry } from 'prom-client';
import { AuditMetrics, AuditRecordOutcome } from '../audit/adapters/audit-metrics';

const OUTCOMES: readonly AuditRecordOutcome[] = ['written', 'spooled', 'replayed', 'quarantined', 'dropped'];

type Backlog = { buffered: number; spooled: number; degraded: boolean };

/** The audit writer's metrics, on the service's registry (docs/audit.md; alerts in grafana/prometheus/rules.yml). */
export class PrometheusAuditMetrics implements AuditMetrics {
  private readonly records: Counter<'outcome'>;
  private backlog: () => Backlog = () => ({ buffered: 0, spooled: 0, degraded: false });

  constructor(registry: Registry) {
    const registers = [registry];
    this.records = new Counter({
      name: 'verify_audit_records_total',
      help: 'Audit records by what became of them: written to the store, spooled locally, replayed from the spool, quarantined (refused by the store for their content; kept in a local file), dropped (lost).',
      labelNames: ['outcome'], registers,
    });
    for (const outcome of OUTCOMES) this.records.inc({ outcome }, 0);
    // Gauges read the writer's state at scrape time, never a stale copy.
    const read = this.read.bind(this);
    new Gauge({
      name: 'verify_audit_buffered_records', help: 'Audit records in memory awaiting a write to the store or the spool.', registers,
      collect() { this.set(read().buffered); },
    });
    new Gauge({
      name: 'verify_audit_spool_bytes', help: 'Size of the local audit spool: records the store has not taken yet.', registers,
      collect() { this.set(read().spooled); },
    });
    new Gauge({
      name: 'verify_audit_degraded', help: '1 while audit records go to the local spool instead of the audit store.', registers,
      collect() { this.set(read().degraded ? 1 : 0); },
    });
  }

  auditRecords(outcome: AuditRecordOutcome, count: number): void {
    this.records.inc({ outcome }, count);
  }

  trackAuditBacklog(source: () => Backlog): void {
    this.backlog = source;
  }

  private read(): Backlog {
    return this.backlog();
  }
}
