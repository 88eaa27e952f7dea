import { randomBytes } from 'node:crypto';
import { ConflictError, NotSubscriberError } from '../errors/domain-errors';
import { Metrics } from './ports/metrics';
import { TxnClaim, TxnStore } from './ports/state-store';
import { Answer, VerificationResult } from './results';
import { VerificationInput } from './verification-input';

export interface TxnSettings {
  /** How long a txn_id stays used (CONTRACT TXN_TTL_S). */
  ttlS: number;
  /** How long an unfinished claim holds, so a crashed instance cannot lock a txn_id for a day. */
  inFlightTtlS: number;
  /**
   * Store the answer before returning it, not after: on when the store makes records durable
   * first (Redis WAIT, REDIS_WAIT_REPLICAS), so no answer goes out whose record a failover
   * could still lose. Costs the record's round trip on every fresh answer.
   */
  recordBeforeAnswer?: boolean;
}

/** A txn_id to claim: what the state store's admission takes (ports/state-store.ts). */
export interface TxnTicket {
  key: string;
  fingerprint: string;
  ttlS: number;
  /** Unique to this request: tells its claim from another instance's claim of the same request. */
  owner: string;
}

/*
 * Owner tokens: this process's random prefix and a counter, unique across a fleet without a
 * random draw per request (the hot path makes one per txn_id).
 */
const OWNER_PREFIX = randomBytes(6).toString('base64url');
let ownerSeq = 0;
const nextOwner = () => `${OWNER_PREFIX}${(ownerSeq++).toString(36)}`;

/** A final answer worth replaying: a result, or a "not a subscriber" refusal. */
type StoredOutcome = { r: VerificationResult } | { e: 'not_subscriber'; m: string };

/** Same txn_id, operation, msisdn (as sent) and max_age: the same request, so a replay. */
export function fingerprintOf(input: VerificationInput): string {
  return `${input.operation}|${input.msisdnRaw}|${input.maxAgeHours ?? ''}`;
}

/**
 * CONTRACT §1.4: claim before work, store the final answer, release after a 9999 so the
 * partner may retry. Final 11111 answers that depend only on the request (not a subscriber)
 * are stored and replayed like successes: the same txn_id always gets the same answer.
 *
 * The claim itself is made by the state store's admission, together with the rate limit
 * (one round trip); this guard turns what the claim found into work, a replay or a 409.
 */
export class TxnGuard {
  constructor(
    private readonly store: TxnStore,
    private readonly metrics: Metrics,
    private readonly settings: TxnSettings,
    private readonly onStoreError: (err: unknown) => void = () => {},
  ) {}

  /** The claim a request with this txn_id makes. Keys are `<api key>:<txn_id>` (the port's rule). */
  ticket(partnerKey: string, txnId: string, input: VerificationInput): TxnTicket {
    return { key: `${partnerKey}:${txnId}`, fingerprint: fingerprintOf(input), ttlS: this.settings.inFlightTtlS, owner: nextOwner() };
  }

  /**
   * Runs work when the claim was ours; otherwise replays or refuses. The answer is recorded
   * without waiting: the record is sent before the answer is returned, on the connection the
   * claim used, so a retry (which can only arrive after the answer) finds it, or the claim
   * still in flight (409), never a free txn_id. With recordBeforeAnswer, the record is
   * awaited first.
   */
  async settle(ticket: TxnTicket, claim: TxnClaim, work: () => Promise<VerificationResult>): Promise<Answer> {
    const { key, fingerprint, owner } = ticket;
    switch (claim.status) {
      case 'claimed':
        break;
      case 'in-flight':
        this.metrics.txn(claim.fingerprint === fingerprint ? 'in_flight' : 'conflict');
        throw new ConflictError(claim.fingerprint === fingerprint
          ? 'txn_id is already in flight' : 'txn_id already used for a different request');
      case 'done':
        if (claim.fingerprint !== fingerprint) {
          this.metrics.txn('conflict');
          throw new ConflictError('txn_id already used for a different request');
        }
        this.metrics.txn('replayed');
        return { result: this.replay(claim.outcome), replayed: true };
      default: {
        const never: never = claim;
        throw new Error(`unknown claim ${JSON.stringify(never)}`);
      }
    }
    this.metrics.txn('new');
    let result: VerificationResult;
    try {
      result = await work();
    } catch (err) {
      if (err instanceof NotSubscriberError) {
        const recorded = this.record(key, fingerprint, { e: 'not_subscriber', m: err.reason });
        if (this.settings.recordBeforeAnswer) await recorded;
      } else {
        await this.store.release(key, fingerprint, owner).catch(this.onStoreError);
      }
      throw err;
    }
    const recorded = this.record(key, fingerprint, { r: result });
    if (this.settings.recordBeforeAnswer) await recorded;
    return { result, replayed: false };
  }

  /** The answer is already won: failing to store it must not turn it into a 500. */
  private async record(key: string, fingerprint: string, outcome: StoredOutcome): Promise<void> {
    try {
      await this.store.complete(key, fingerprint, JSON.stringify(outcome), this.settings.ttlS);
    } catch (err) {
      this.onStoreError(err);
    }
  }

  private replay(outcome: string): VerificationResult {
    const stored = JSON.parse(outcome) as StoredOutcome;
    if ('r' in stored) return stored.r;
    const err = new NotSubscriberError(stored.m);
    err.replayed = true;
    throw err;
  }
}
