import { CAMARA_APIS } from '../partners/camara-apis';
import { Operation } from '../partners/operation';

/** CAMARA scopes (CONTRACT §7, §8, §11), as the specs name them, for the services' checks; what is granted comes from the declarations. */
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

/** SIM Swap's first, as the declarations list them: granted scope strings keep their order. */
const OPERATIONS_IN_DECLARATION_ORDER: readonly Operation[] = [...new Set(CAMARA_APIS.map((api) => api.registryOperation))];

/** The scopes a registry operation implies: those of every API version it grants (CONTRACT §7, §11, §13). */
function declaredScopes(op: Operation): string[] {
  return CAMARA_APIS.filter((api) => api.registryOperation === op).flatMap((api) => api.scopes);
}

/** Every scope the service knows, in the declarations' order without repeats (metadata's scopes_supported). */
export const ALL_SCOPES: readonly string[] = [...new Set(CAMARA_APIS.flatMap((api) => api.scopes))];

/** The scopes a partner may hold: those its registry `operations` imply, in the declarations' order. */
export function scopesForOperations(operations: ReadonlySet<Operation>): string[] {
  return [...new Set(OPERATIONS_IN_DECLARATION_ORDER.filter((op) => operations.has(op)).flatMap(declaredScopes))];
}

/** RFC 6749 §3.3: scope = scope-token *( SP scope-token ), scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). */
const SCOPE_PARAM = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/;

/** The tokens of a `scope` string, or undefined when it is not RFC 6749 scope syntax. */
export function parseScope(value: string): string[] | undefined {
  return SCOPE_PARAM.test(value) ? value.split(' ') : undefined;
}
