import { AuditSettings } from '../config/audit-settings';
import { Clock } from '../kernel/clock';
import { Logger } from '../observability/logger';
import { AuditMetrics } from './adapters/audit-metrics';
import { AuditWriter, createAuditWriter } from './adapters/create-audit-writer';
import { AuditRecorder } from './audit-recorder';

export interface Audit {
  /** The trail's writer: its mode for /readyz, flush for tests. */
  writer: AuditWriter;
  /** What the interfaces record each answered verification with. */
  recorder: AuditRecorder;
  close(): Promise<void>;
}

/**
 * The audit trail (CONTRACT §9), started: spooled records replayed, the store reached or
 * degraded. Closing writes every record still buffered, so it must come after the listeners
 * stopped answering.
 */
export async function createAudit(deps: { clock: Clock; logger: Logger; metrics: AuditMetrics }, config: AuditSettings): Promise<Audit> {
  const writer = createAuditWriter(config, deps);
  await writer.start();
  return {
    writer,
    recorder: new AuditRecorder({ trail: writer, clock: deps.clock, failClosed: config.AUDIT_FAIL_CLOSED }),
    close: () => writer.close(),
  };
}
