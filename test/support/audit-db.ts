import { PostgresProcess } from './postgres-server';

/** An audit row as the tests read it back. */
export interface AuditRow {
  id: string;
  time: Date;
  partner: string;
  interface: string;
  operation: string;
  msisdn: string;
  code: string;
  http_status: number;
  txn_id: string | null;
  correlator: string;
  purpose: string | null;
  replayed: boolean;
}

export async function auditRows(pg: PostgresProcess, where = 'true', params: unknown[] = []): Promise<AuditRow[]> {
  return pg.query<AuditRow>(`SELECT * FROM audit_records WHERE ${where} ORDER BY time, operation`, params);
}

/** Polls until `check` passes or the deadline; rethrows the last failure. */
export async function eventually(check: () => Promise<void>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
