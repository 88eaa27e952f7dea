import { Operation } from '../partners/operation';

/** CAMARA scopes (CONTRACT §7, §8, §11), as the specs name them. */
export const SCOPES = {
  simSwap: 'sim-swap',
  simSwapCheck: 'sim-swap:check',
  simSwapRetrieveDate: 'sim-swap:retrieve-date',
  kycTenureCheck: 'kyc-tenure:check-tenure',
  subscriptionsCreate: 'sim-swap-subscriptions:org.camaraproject.sim-swap-subscriptions.v0.swapped:create',
  subscriptionsRead: 'sim-swap-subscriptions:read',
  subscriptionsDelete: 'sim-swap-subscriptions:delete',
  kycMatch: 'kyc-match:match',
  deviceSwap: 'device-swap',
  deviceSwapCheck: 'device-swap:check',
  deviceSwapRetrieveDate: 'device-swap:retrieve-date',
  unconditionalCallForwardings: 'call-forwarding-signal:unconditional-call-forwardings:read',
  callForwardings: 'call-forwarding-signal:call-forwardings:read',
  numberRecyclingCheck: 'number-recycling:check',
} as const;

export type Scope = (typeof SCOPES)[keyof typeof SCOPES];

/** The scopes each registry operation implies (CONTRACT §7, §11). */
const BY_OPERATION: Readonly<Record<Operation, readonly Scope[]>> = {
  sim_swap: [
    SCOPES.simSwap, SCOPES.simSwapCheck, SCOPES.simSwapRetrieveDate,
    SCOPES.subscriptionsCreate, SCOPES.subscriptionsRead, SCOPES.subscriptionsDelete,
  ],
  kyc: [SCOPES.kycTenureCheck],
  kyc_match: [SCOPES.kycMatch],
  // device-swap.yaml accepts the API-wide `device-swap` scope or the operation's own.
  device_swap: [SCOPES.deviceSwap, SCOPES.deviceSwapCheck, SCOPES.deviceSwapRetrieveDate],
  call_forwarding: [SCOPES.unconditionalCallForwardings, SCOPES.callForwardings],
  number_recycling: [SCOPES.numberRecyclingCheck],
};

/** SIM swap's scopes first, as they were listed before the other APIs came: granted scope strings keep their order. */
const SCOPE_ORDER: readonly Operation[] = ['sim_swap', 'kyc', 'kyc_match', 'device_swap', 'call_forwarding', 'number_recycling'];

/** Every scope the service knows, in a stable order (metadata's scopes_supported). */
export const ALL_SCOPES: readonly Scope[] = SCOPE_ORDER.flatMap((op) => BY_OPERATION[op]);

/** The scopes a partner may hold: those its registry `operations` imply, in a stable order. */
export function scopesForOperations(operations: ReadonlySet<Operation>): Scope[] {
  return SCOPE_ORDER.filter((op) => operations.has(op)).flatMap((op) => BY_OPERATION[op]);
}

/** RFC 6749 §3.3: scope = scope-token *( SP scope-token ), scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). */
const SCOPE_PARAM = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/;

/** The tokens of a `scope` string, or undefined when it is not RFC 6749 scope syntax. */
export function parseScope(value: string): string[] | undefined {
  return SCOPE_PARAM.test(value) ? value.split(' ') : undefined;
}
