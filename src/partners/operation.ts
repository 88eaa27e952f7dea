/**
 * What a partner may do, as the registry's `operations` name it (CONTRACT §4.1, §11). The two
 * legacy ones are also the legacy REST path segments; the others are CAMARA-only APIs.
 */
export type LegacyOperation = 'kyc' | 'sim_swap';
export type Operation = LegacyOperation | 'kyc_match' | 'device_swap' | 'call_forwarding' | 'number_recycling';

/** The legacy REST operations: `/eai/verify_customer/query/{kyc|sim_swap}`, the CLI's `call`, the demo curls. */
export const LEGACY_OPERATIONS: readonly LegacyOperation[] = ['kyc', 'sim_swap'];

/** Every registry operation: metrics labels, registry validation, scopes. */
export const OPERATIONS: readonly Operation[] = [...LEGACY_OPERATIONS, 'kyc_match', 'device_swap', 'call_forwarding', 'number_recycling'];

export function isOperation(value: unknown): value is Operation {
  return (OPERATIONS as readonly unknown[]).includes(value);
}

export function isLegacyOperation(value: unknown): value is LegacyOperation {
  return value === 'kyc' || value === 'sim_swap';
}
