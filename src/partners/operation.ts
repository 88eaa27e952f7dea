import { CAMARA_APIS, CamaraRegistryOperation } from './camara-apis';

/**
 * What a partner may do, as the registry's `operations` name it (CONTRACT §4.1, §11). The two
 * legacy ones are also the legacy REST path segments; the others are the CAMARA-only APIs'
 * words, read from their declarations (camara-apis.ts).
 */
export type LegacyOperation = 'kyc' | 'sim_swap';
export type Operation = LegacyOperation | CamaraRegistryOperation;

/** The legacy REST operations: `/eai/verify_customer/query/{kyc|sim_swap}`, the CLI's `call`, the demo curls. */
export const LEGACY_OPERATIONS: readonly LegacyOperation[] = ['kyc', 'sim_swap'];

/** Every registry operation: metrics labels, registry validation, scopes. The legacy two first, then in declaration order. */
export const OPERATIONS: readonly Operation[] = [...new Set<Operation>([...LEGACY_OPERATIONS, ...CAMARA_APIS.map((api) => api.registryOperation)])];

export function isOperation(value: unknown): value is Operation {
  return (OPERATIONS as readonly unknown[]).includes(value);
}

export function isLegacyOperation(value: unknown): value is LegacyOperation {
  return value === 'kyc' || value === 'sim_swap';
}
