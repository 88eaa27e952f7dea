import { randomUUID } from 'node:crypto';
import { Partner } from '../../partners/partners';
import { ServiceNotApplicableError } from '../../camara/camara-errors';
import { msisdnOfPhone, subjectOf } from '../../camara/camara-input';
import { NotSubscriberError } from '../../errors/domain-errors';
import { NumberingPlan } from '../../kernel/msisdn';
import { InsufficientScopeError } from '../../oauth/oauth-errors';
import { SCOPES } from '../../oauth/access-scopes';
import { AccessGrant } from '../../oauth/ports/access-tokens';
import { Clock } from '../../kernel/clock';
import { EventDelivery, SinkPolicy } from '../ports/event-delivery';
import { SubscriptionStore } from '../ports/subscription-store';
import { SubscriptionNotFoundError, SubscriptionQuotaError } from './subscription-errors';
import { parseRfc3339 } from '../../kernel/rfc3339';
import { parseSubscriptionRequest } from './subscription-input';
import {
  ACCESS_TOKEN_END_LEAD_MS, Delivery, SubscriptionRecord, TerminationReason, endedEvent, endedEventId, expiryReasonOf,
  swappedEvent, swappedEventId,
} from './subscription';

export interface SubscriptionServiceDeps {
  store: SubscriptionStore;
  delivery: EventDelivery;
  sinks: SinkPolicy;
  clock: Clock;
  plan: NumberingPlan;
  /** The partner's rate limit, the one its verification requests spend (429 TOO_MANY_REQUESTS). */
  admit(partner: Partner): Promise<void>;
  /** SUBSCRIPTIONS_MAX_PER_PARTNER: live subscriptions one partner may hold. */
  maxPerPartner: number;
}

/** How many expired subscriptions one sweep ends at most (the next sweep takes the rest). */
const SWEEP_BATCH = 500;

/**
 * SIM Swap Subscriptions 0.3.0 (CONTRACT §8): partners manage subscriptions to their numbers'
 * swaps; a reported swap becomes one CloudEvent per matching subscription; ends (expiry,
 * maximum, deletion) become subscription-ended. Order of checks as the CAMARA routes: scope
 * (403), body (400), identifier (422), sink (400).
 */
export class SubscriptionService {
  constructor(private readonly deps: SubscriptionServiceDeps) {}

  async create(grant: AccessGrant, body: unknown): Promise<SubscriptionRecord> {
    requireScope(grant, SCOPES.subscriptionsCreate);
    await this.deps.admit(grant.partner);
    const now = this.deps.clock.nowMs();
    const req = parseSubscriptionRequest(body, now);
    const phoneNumber = subjectOf(grant.phoneNumber, req.phoneNumber);
    let msisdn: string;
    try {
      msisdn = msisdnOfPhone(phoneNumber, this.deps.plan);
    } catch (err) {
      // Creation documents no 404: a number that cannot be ours is one the service does not apply to.
      if (err instanceof NotSubscriberError) throw new ServiceNotApplicableError('the service is not available for this phone number', undefined, { cause: err });
      throw err;
    }
    await this.deps.sinks.check(req.sink);
    // Checked, not reserved: creations racing at the cap may pass it by the few in flight.
    if (await this.deps.store.countByPartner(grant.partner.apiKey) >= this.deps.maxPerPartner) {
      throw new SubscriptionQuotaError(`a partner may hold at most ${this.deps.maxPerPartner} subscriptions; delete some first`);
    }
    const sub: SubscriptionRecord = {
      id: randomUUID(), partner: grant.partner.apiKey, phoneNumber, msisdn,
      threeLegged: grant.phoneNumber !== undefined, sink: req.sink, types: req.types, startsAtMs: now,
    };
    if (req.credential) sub.credential = req.credential;
    if (req.subscriptionExpireTime !== undefined) sub.subscriptionExpireTime = req.subscriptionExpireTime;
    if (req.expiresAtMs !== undefined) sub.expiresAtMs = req.expiresAtMs;
    if (req.maxEvents !== undefined) sub.maxEvents = req.maxEvents;
    if (req.credential?.credentialType === 'ACCESSTOKEN') {
      // The token ends the subscription if it runs out first, announced while it still works.
      const tokenEndMs = Math.max(now, (parseRfc3339(req.credential.accessTokenExpiresUtc) ?? now) - ACCESS_TOKEN_END_LEAD_MS);
      if (sub.expiresAtMs === undefined || tokenEndMs < sub.expiresAtMs) {
        sub.expiresAtMs = tokenEndMs;
        sub.expiryReason = 'ACCESS_TOKEN_EXPIRED';
      }
    }
    await this.deps.store.add(sub);
    return sub;
  }

  /** Two-legged: every subscription of the partner; three-legged: those for the token's number. */
  async list(grant: AccessGrant): Promise<SubscriptionRecord[]> {
    requireScope(grant, SCOPES.subscriptionsRead);
    await this.deps.admit(grant.partner);
    const all = await this.deps.store.listByPartner(grant.partner.apiKey);
    const now = this.deps.clock.nowMs();
    return all
      .filter((s) => s.expiresAtMs === undefined || s.expiresAtMs > now)
      .filter((s) => grant.phoneNumber === undefined || s.phoneNumber === grant.phoneNumber)
      .sort((a, b) => a.startsAtMs - b.startsAtMs || a.id.localeCompare(b.id));
  }

  /** The operator's view (the admin API, CONTRACT §12): a partner's live subscriptions, no token, no admission. */
  async listForOperator(partnerApiKey: string): Promise<SubscriptionRecord[]> {
    const now = this.deps.clock.nowMs();
    return (await this.deps.store.listByPartner(partnerApiKey))
      .filter((s) => s.expiresAtMs === undefined || s.expiresAtMs > now)
      .sort((a, b) => a.startsAtMs - b.startsAtMs || a.id.localeCompare(b.id));
  }

  async get(grant: AccessGrant, id: string): Promise<SubscriptionRecord> {
    requireScope(grant, SCOPES.subscriptionsRead);
    await this.deps.admit(grant.partner);
    return this.owned(grant, id);
  }

  /** Deletes it and announces SUBSCRIPTION_DELETED to its sink. */
  async delete(grant: AccessGrant, id: string): Promise<void> {
    requireScope(grant, SCOPES.subscriptionsDelete);
    await this.deps.admit(grant.partner);
    await this.end(await this.owned(grant, id), 'SUBSCRIPTION_DELETED');
  }

  /**
   * A swap reported for msisdn (CONTRACT §5): one `swapped` event per live subscription, then
   * `subscription-ended` for those that reached their maximum or had already expired.
   * Idempotent: events are queued first, under ids derived from the subscription and the swap
   * (`swapId`, the reporter's own, else the subscription's next event number), and the state
   * moves only after, so a report answered 503 and retried queues each event once.
   */
  async onSwap(msisdn: string, swapId?: string): Promise<number> {
    const now = this.deps.clock.nowMs();
    const subs = await this.deps.store.listByMsisdn(msisdn);
    const out: Delivery[] = [];
    const after: (() => Promise<unknown>)[] = [];
    for (const sub of subs) {
      if (sub.expiresAtMs !== undefined && sub.expiresAtMs <= now) {
        out.push(endedEvent(sub, endedEventId(sub.id), now, expiryReasonOf(sub)));
        after.push(() => this.deps.store.remove(sub.id));
        continue;
      }
      // The reporter's id names the swap on every retry; without one, the event number does,
      // which a retry after a failed report rebuilds since the count has not moved.
      const reported = swapId === undefined ? undefined : `reported ${swapId}`;
      const state = await this.deps.store.eventState(sub.id, reported ?? '');
      const n = reported !== undefined && state.counted ? state.count : state.count + 1;
      if (sub.maxEvents !== undefined && n > sub.maxEvents) {
        // Its last event was counted (so its ended event queued) but the removal failed: finish it.
        after.push(() => this.deps.store.remove(sub.id));
        continue;
      }
      const swapKey = reported ?? `number ${n}`;
      const swapped = swappedEvent(sub, swappedEventId(sub.id, swapKey), now);
      out.push(swapped);
      after.push(() => this.deps.store.countEvent(sub.id, swapKey));
      if (sub.maxEvents !== undefined && n === sub.maxEvents) {
        swapped.followUp = endedEvent(sub, endedEventId(sub.id), now, 'MAX_EVENTS_REACHED');
        after.push(() => this.deps.store.remove(sub.id));
      }
    }
    if (out.length > 0) await this.deps.delivery.enqueue(out);
    for (const step of after) await step();
    return out.length;
  }

  /** Ends subscriptions whose expiry has passed; each instance runs it, each end is announced once. */
  async sweepExpired(): Promise<number> {
    const ids = await this.deps.store.expired(this.deps.clock.nowMs(), SWEEP_BATCH);
    let n = 0;
    for (const id of ids) {
      const sub = await this.deps.store.get(id);
      if (sub && await this.end(sub, 'expiry')) n++;
    }
    return n;
  }

  /**
   * Announces why it ended ('expiry': the reason its expiry carries), then removes it. The
   * event is queued first under the subscription's one ended id: a failure in between leaves
   * the subscription in place for the retry, and the retry's event is the same job.
   */
  private async end(sub: SubscriptionRecord, reason: TerminationReason | 'expiry'): Promise<boolean> {
    const why = reason === 'expiry' ? expiryReasonOf(sub) : reason;
    await this.deps.delivery.enqueue([endedEvent(sub, endedEventId(sub.id), this.deps.clock.nowMs(), why)]);
    return (await this.deps.store.remove(sub.id)) !== undefined;
  }

  /** The partner's own live subscription, within a three-legged token's number; else NOT_FOUND. */
  private async owned(grant: AccessGrant, id: string): Promise<SubscriptionRecord> {
    const sub = id.length <= 64 ? await this.deps.store.get(id) : undefined;
    const now = this.deps.clock.nowMs();
    if (!sub || sub.partner !== grant.partner.apiKey
      || (grant.phoneNumber !== undefined && sub.phoneNumber !== grant.phoneNumber)
      || (sub.expiresAtMs !== undefined && sub.expiresAtMs <= now)) {
      throw new SubscriptionNotFoundError('The specified resource is not found.');
    }
    return sub;
  }
}

function requireScope(grant: AccessGrant, scope: string): void {
  if (!grant.scopes.has(scope)) throw new InsufficientScopeError('Client does not have sufficient permissions to perform this action.', [scope]);
}
