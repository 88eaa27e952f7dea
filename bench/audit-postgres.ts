import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresProcess, startPostgres } from '../tools/process-kit/postgres-server';
import { Scenario } from './scenarios';

/*
 * Issue 14's measurement: S1 with the audit trail on PostgreSQL must keep at least 0.90 of
 * S1's throughput with the audit trail off, in the same `npm run bench` run. Not wired into
 * the runner yet (bench/ is owned elsewhere); see the wiring notes at the end of this file.
 */

/** S1's traffic, with every request leaving an audit record in PostgreSQL. Interleaved with S1 so both meet the same noise. */
export const S1_AUDIT_PG: Scenario = {
  id: 'S1+auditPG', title: 'S1 with the audit trail on PostgreSQL', target: 'service', kind: 'kyc-hot',
  expectStatuses: [200], connections: 32, interleaved: true,
};

/** What S1 itself runs with for the comparison: no audit trail at all. */
export const AUDIT_OFF_ENV: Readonly<Record<string, string>> = { AUDIT_ENABLED: 'false' };

/** The bench's own PostgreSQL cluster (initdb in a temp dir, free port), started once per run beside Redis. */
export function startAuditPostgres(): Promise<PostgresProcess> {
  return startPostgres();
}

/** The service's environment for S1_AUDIT_PG: PostgreSQL, and a spool directory of its own. */
export function auditPostgresEnv(pg: PostgresProcess): Record<string, string> {
  return { AUDIT_DATABASE_URL: pg.url, AUDIT_DIR: mkdtempSync(join(tmpdir(), 'vc-bench-audit-')) };
}

/** Sanity after the run: records written must equal S1+auditPG's 200s (none lost, none spooled away). */
export async function auditRecordCount(pg: PostgresProcess): Promise<number> {
  const rows = await pg.query<{ n: string }>('SELECT count(*) AS n FROM audit_records');
  return Number(rows[0].n);
}

/** The report line: S1+auditPG / S1, goal >= 0.90. */
export function auditThroughputCheck(s1Rps: number | undefined, auditRps: number | undefined) {
  const value = s1Rps && auditRps ? auditRps / s1Rps : undefined;
  return { name: 'S1 with audit on PostgreSQL / S1 with audit off', value: value?.toFixed(2) ?? 'n/a', goal: '>= 0.90', met: value === undefined ? null : value >= 0.9 };
}

/*
 * Wiring into bench/ (for its owner):
 * 1. scenarios.ts: add S1_AUDIT_PG to SCENARIOS after S1, and an optional `serviceEnv` to
 *    Scenario; give S1 (and the scenarios compared with it) `serviceEnv: AUDIT_OFF_ENV`, so S1
 *    is "audit off" and nothing writes to ./var during a bench.
 * 2. stack.ts: start `startAuditPostgres()` in the stack beside Redis (destroy() it on stop), and
 *    let startTarget(stack, 'service', { env }) merge the scenario's env, with
 *    `auditPostgresEnv(stack.auditPg)` for S1+auditPG. Targets are per scenario, so two service
 *    processes (audit off, audit on PostgreSQL) alternate in the interleaved rounds.
 * 3. report.ts: push auditThroughputCheck(by('S1')?.rps, by('S1+auditPG')?.rps), and after the run
 *    compare auditRecordCount() with S1+auditPG's answered requests (preflight requests included).
 * 4. docs/performance.md: report the ratio.
 */
