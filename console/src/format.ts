/** Times as operators read them in incidents: UTC, minute precision, no locale guessing. */
export function utc(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function day(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The registry's operations (what a partner may be allowed), in the order the console lists them. */
export const OPERATIONS = ['kyc', 'sim_swap', 'kyc_match', 'device_swap', 'call_forwarding', 'number_recycling', 'age_verification'] as const;

/** Registry operations and the audit trail's operation names (CAMARA SIM Swap and KYC Tenure record their own). */
export const OPERATION_LABELS: Record<string, string> = {
  check: 'SIM swap check',
  'retrieve-date': 'SIM swap date',
  'check-tenure': 'KYC tenure',
  kyc: 'KYC',
  sim_swap: 'SIM swap',
  kyc_match: 'KYC Match',
  device_swap: 'Device swap',
  call_forwarding: 'Call forwarding',
  number_recycling: 'Number recycling',
  age_verification: 'Age verification',
};

export function operationLabel(op: string): string {
  return OPERATION_LABELS[op] ?? op;
}
