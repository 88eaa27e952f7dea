/**
 * The registry's words for what a partner may do (CONTRACT §1, §11). Each is also a metrics
 * label and an audit/rate-limit name. Only the legacy operations have REST paths.
 */
export type Operation = 'kyc' | 'sim_swap' | 'kyc_match';

export const OPERATIONS: readonly Operation[] = ['kyc', 'sim_swap', 'kyc_match'];

export function isOperation(value: unknown): value is Operation {
  return typeof value === 'string' && (OPERATIONS as readonly string[]).includes(value);
}

/** The two legacy operations; their names are the REST path segments (CONTRACT §1). */
export type LegacyOperation = 'kyc' | 'sim_swap';

export const LEGACY_OPERATIONS: readonly LegacyOperation[] = ['kyc', 'sim_swap'];

export function isLegacyOperation(value: unknown): value is LegacyOperation {
  return value === 'kyc' || value === 'sim_swap';
}
