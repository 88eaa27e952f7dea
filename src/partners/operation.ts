/** The two public operations; their names are the REST path segments and the registry's words. */
export type Operation = 'kyc' | 'sim_swap';

export const OPERATIONS: readonly Operation[] = ['kyc', 'sim_swap'];

export function isOperation(value: unknown): value is Operation {
  return value === 'kyc' || value === 'sim_swap';
}
