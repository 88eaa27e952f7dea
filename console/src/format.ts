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

export const OPERATION_LABELS: Record<string, string> = {
  kyc: 'KYC',
  sim_swap: 'SIM swap',
  kyc_match: 'KYC Match',
  device_swap: 'Device swap',
  call_forwarding: 'Call forwarding',
  number_recycling: 'Number recycling',
};

export function operationLabel(op: string): string {
  return OPERATION_LABELS[op] ?? op;
}
