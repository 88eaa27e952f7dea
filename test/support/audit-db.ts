import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresProcess } from '../../tools/process-kit/postgres-server';
import { postJson } from './harness';
import { DEMO, DEMO_KYC_ONLY, signedQuery, txnId } from './signing';

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
  /** KYC Match's summary (jsonb), null for every other operation. */
  match: unknown;
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

export const PURPOSE = 'dpv:FraudPreventionAndDetection';
export const LIMITED = { apiKey: 'limited-key', secret: 'limited-secret' };

/** demo-bank with a declared purpose, a KYC-only partner without one, and a partner whose rate limit allows one request. */
export function auditPartnersFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'vc-audit-partners-')), 'partners.json');
  writeFileSync(file, JSON.stringify({ partners: [
    { name: 'demo-bank', apiKey: DEMO.apiKey, secret: DEMO.secret, operations: ['kyc', 'sim_swap', 'kyc_match'], purpose: PURPOSE },
    { name: 'demo-kyc-only', apiKey: DEMO_KYC_ONLY.apiKey, secret: DEMO_KYC_ONLY.secret, operations: ['kyc'] },
    { name: 'limited', apiKey: LIMITED.apiKey, secret: LIMITED.secret, operations: ['kyc'], rateLimit: { perSecond: 0.001, burst: 1 } },
  ] }));
  return file;
}


/** Signed KYC calls from `clients` loops until stopped; `answered` collects the correlators of the 200s. */
export function kycLoad(url: string, txnPrefix: string, clients: number): { answered: string[]; stop(): Promise<void> } {
  const answered: string[] = [];
  let running = true;
  const client = async () => {
    while (running) {
      const correlator = randomUUID();
      try {
        const r = await postJson(`${url}/eai/verify_customer/query/kyc?${signedQuery(DEMO)}`,
          { txn_id: txnId(txnPrefix), msisdn: '255712000002' }, { headers: { 'x-correlator': correlator } });
        if (r.status === 200) answered.push(correlator);
      } catch {
        return; // the process or its listener is gone
      }
    }
  };
  const loops = Array.from({ length: clients }, client);
  return { answered, stop: async () => { running = false; await Promise.all(loops); } };
}
