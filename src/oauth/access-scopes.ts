import { Operation } from '../partners/operation';

/** CAMARA scopes (CONTRACT §7, §8), as the specs name them. */
export const SCOPES = {
  simSwap: 'sim-swap',
  simSwapCheck: 'sim-swap:check',
  simSwapRetrieveDate: 'sim-swap:retrieve-date',
  kycTenureCheck: 'kyc-tenure:check-tenure',
  subscriptionsCreate: 'sim-swap-subscriptions:org.camaraproject.sim-swap-subscriptions.v0.swapped:create',
  subscriptionsRead: 'sim-swap-subscriptions:read',
  subscriptionsDelete: 'sim-swap-subscriptions:delete',
  kycMatch: 'kyc-match:match',
} as const;

export type Scope = (typeof SCOPES)[keyof typeof SCOPES];

const BY_OPERATION: Readonly<Record<Operation, readonly Scope[]>> = {
  sim_swap: [
    SCOPES.simSwap, SCOPES.simSwapCheck, SCOPES.simSwapRetrieveDate,
    SCOPES.subscriptionsCreate, SCOPES.subscriptionsRead, SCOPES.subscriptionsDelete,
  ],
  kyc: [SCOPES.kycTenureCheck],
  kyc_match: [SCOPES.kycMatch],
};

/** Every scope the service knows, in a stable order (metadata's scopes_supported). */
export const ALL_SCOPES: readonly Scope[] = [...BY_OPERATION.sim_swap, ...BY_OPERATION.kyc, ...BY_OPERATION.kyc_match];

/** The scopes a partner may hold: those its registry `operations` imply, in a stable order. */
export function scopesForOperations(operations: ReadonlySet<Operation>): Scope[] {
  const held = new Set([...operations].flatMap((op) => BY_OPERATION[op]));
  return ALL_SCOPES.filter((s) => held.has(s));
}

/** RFC 6749 §3.3: scope = scope-token *( SP scope-token ), scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). */
const SCOPE_PARAM = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/;

/** The tokens of a `scope` string, or undefined when it is not RFC 6749 scope syntax. */
export function parseScope(value: string): string[] | undefined {
  return SCOPE_PARAM.test(value) ? value.split(' ') : undefined;
}
