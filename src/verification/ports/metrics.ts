import { LegacyOperation, Operation } from '../../partners/operation';
import { AuthFailureMetrics } from '../../partners/ports/auth-failure-metrics';
import { UpstreamName } from './upstreams';

export type CacheOutcome = 'hit' | 'miss' | 'stale';
export type TxnOutcome = 'new' | 'replayed' | 'conflict' | 'in_flight';
export type { AuthFailureReason, AuthInterface } from '../../partners/ports/auth-failure-metrics';
export type UpstreamOutcome = 'ok' | 'not_found' | 'error' | 'timeout' | 'rejected';
/** Why a 200 reply was not used (CONTRACT §3): over the body limit once decoded, or about another number. */
export type RefusedReply = 'too_large' | 'other_subscriber';
export type BreakerState = 'closed' | 'open' | 'half_open';
/**
 * A txn_id write with REDIS_WAIT_REPLICAS: enough replicas acknowledged in time, fewer did
 * (short), or no WAIT was sent because one on the same connection was just short (skipped).
 */
export type ReplicationWaitOutcome = 'acked' | 'short' | 'skipped';
/**
 * A state store call that failed without being an outage: a command or programming error
 * surfaced as a 500 (command_error), or a new txn_id refused with 503 because degraded mode's
 * memory budget is full (degraded_full), or a command that outlived its timeout on a standing
 * connection (timeout: slow, not down; its outcome unknown, a txn_id claim answered 503).
 */
export type StateStoreFailure = 'command_error' | 'degraded_full' | 'timeout';

/** What the domain and adapters report; the Prometheus module implements it. Labels are bounded sets. */
export interface Metrics extends AuthFailureMetrics {
  /** The two caches are named after the legacy operation whose facts they hold: kyc (HLR), sim_swap (SIM management). */
  cache(operation: LegacyOperation, outcome: CacheOutcome): void;
  txn(outcome: TxnOutcome): void;
  rateLimited(operation: Operation): void;
  upstreamCall(upstream: UpstreamName, outcome: UpstreamOutcome, seconds: number): void;
  /** A reply refused as untrusted bytes; the call itself is also counted as an `error`. */
  upstreamReplyRefused(upstream: UpstreamName, reason: RefusedReply): void;
  breakerState(upstream: UpstreamName, state: BreakerState): void;
  storeMode(mode: 'memory' | 'redis' | 'degraded'): void;
  replicationWait(outcome: ReplicationWaitOutcome): void;
  stateStoreFailure(kind: StateStoreFailure): void;
}

export const noopMetrics: Metrics = {
  cache() {}, txn() {}, authFailure() {}, rateLimited() {}, upstreamCall() {}, upstreamReplyRefused() {}, breakerState() {}, storeMode() {}, replicationWait() {}, stateStoreFailure() {},
};
