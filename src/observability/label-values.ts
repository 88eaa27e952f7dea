import { OPERATIONS } from '../partners/operation';
import {
  AuthFailureReason, AuthInterface, BreakerState, CacheOutcome, RefusedReply, ReplicationWaitOutcome, StateStoreFailure, TxnOutcome, UpstreamOutcome,
} from '../verification/ports/metrics';
import { StoreMode } from '../verification/ports/state-store';
import { UpstreamName } from '../verification/ports/upstreams';

/** The interfaces a partner reaches the service through: legacy REST (`rest`), GraphQL, CAMARA. */
export type Interface = 'rest' | 'graphql' | 'camara';

/**
 * Every value each label can take. Written as Records so that adding a member to one of the
 * domain's unions fails to compile here until the new value is listed (and so zero-initialised).
 */
function keys<K extends string>(all: Record<K, true>): readonly K[] {
  return Object.keys(all) as K[];
}

export const LABELS = {
  operation: OPERATIONS,
  interface: keys<Interface>({ rest: true, graphql: true, camara: true }),
  cacheOutcome: keys<CacheOutcome>({ hit: true, miss: true, stale: true }),
  txnOutcome: keys<TxnOutcome>({ new: true, replayed: true, conflict: true, in_flight: true }),
  authReason: keys<AuthFailureReason>({
    missing_key: true, unknown_key: true, disabled: true, bad_signature: true, bad_secret: true, bad_timestamp: true, stale_timestamp: true, throttled: true,
  }),
  authInterface: keys<AuthInterface>({ rest: true, graphql: true, oauth: true }),
  upstream: keys<UpstreamName>({ hlr: true, sim: true, crm: true }),
  upstreamOutcome: keys<UpstreamOutcome>({ ok: true, not_found: true, error: true, timeout: true, rejected: true }),
  refusedReply: keys<RefusedReply>({ too_large: true, other_subscriber: true }),
  breakerState: keys<BreakerState>({ closed: true, open: true, half_open: true }),
  storeMode: keys<StoreMode>({ memory: true, redis: true, degraded: true }),
  replicationWait: keys<ReplicationWaitOutcome>({ acked: true, short: true, skipped: true }),
  stateStoreFailure: keys<StateStoreFailure>({ command_error: true, degraded_full: true, timeout: true }),
} as const;
