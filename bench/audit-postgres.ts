import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresProcess, startPostgres } from '../tools/process-kit/postgres-server';

/*
 * What the audit trail costs: S1 with the audit trail on PostgreSQL (scenario S1+auditPG, target
 * 'auditpg') must keep at least 0.90 of S1's throughput with the audit trail off, in the same
 * `npm run bench` run; both are interleaved, so they meet the same noise.
 */

/** What the 'service' target runs with: no audit trail at all (S1 is "audit off"; nothing writes to ./var). */
export const AUDIT_OFF_ENV: Readonly<Record<string, string>> = { AUDIT_ENABLED: 'false' };

/** The bench's own PostgreSQL cluster (initdb in a temp dir, free port), started once per run beside Redis. */
export function startAuditPostgres(): Promise<PostgresProcess> {
  return startPostgres();
}

/** The 'auditpg' service's environment: PostgreSQL, and a spool directory of its own (a temp dir, never ./var). */
export function auditPostgresEnv(pg: PostgresProcess): Record<string, string> {
  return { AUDIT_DATABASE_URL: pg.url, AUDIT_DIR: mkdtempSync(join(tmpdir(), 'vc-bench-audit-')) };
}

/** Rows in the audit table after the run. */
export async function auditRecordCount(pg: PostgresProcess): Promise<number> {
  const rows = await pg.query<{ n: string }>('SELECT count(*) AS n FROM audit_records');
  return Number(rows[0].n);
}

/** The report line: S1+auditPG / S1, goal >= 0.90. */
export const AUDIT_TARGET = { name: 'S1+auditPG / S1 (audit on PostgreSQL / off)', goal: '>= 0.90', ok: (x: number) => x >= 0.9 };
