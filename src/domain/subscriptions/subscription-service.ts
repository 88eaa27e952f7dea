import { randomUUID } from 'node:crypto';
import { ServiceNotApplicableError } from '../camara-errors';
import { msisdnOfPhone, subjectOf } from '../camara-input';
import { ForbiddenError, NotSubscriberError } from '../errors';
import { NumberingPlan } from '../msisdn';
import { SCOPES } from '../access-scopes';
import { AccessGrant } from '../ports/access-tokens';
import { Clock } from '../ports/clock';
import { EventDelivery, SinkPolicy } from '../ports/event-delivery';
import { SubscriptionStore } from '../ports/subscription-store';
import { SubscriptionNotFoundError } from './subscription-errors';
import { parseRfc3339 } from '../rfc3339';
import { parseSubscriptionRequest } from './subscription-input';
import {
  ACCESS_TOKEN_END_LEAD_MS, Delivery, SubscriptionRecord, TerminationReason, endedEvent, expiryReasonOf, swappedEvent,
} from './subscription';

export interface SubscriptionServiceDeps {
  store: SubscriptionStore;
  delivery: EventDelivery;
  sinks: SinkPolicy;
  clock: Clock;
  plan: NumberingPlan;
  /** Event ids; random UUIDs unless a test needs them predictable. */
  newId?: () => string;
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
  private readonly newId: () => string;

  constructor(private readonly deps: SubscriptionServiceDeps) {
    this.newId = deps.newId ?? randomUUID;
  }

  async create(grant: AccessGrant, body: unknown): Promise<SubscriptionRecord> {
    requireScope(grant, SCOPES.subscriptionsCreate);
    const now = this.deps.clock.nowMs();
    const req = parseSubscriptionRequest(body, now);
    const phoneNumber = subjectOf(grant.phoneNumber, req.phoneNumber);
    let msisdn: string;
    try {
      msisdn = msisdnOfPhone(phoneNumber, this.deps.plan);
    } catch (err) {
      // Creation documents no 404: a number that cannot be ours is one the service does not apply to.
      if (err instanceof NotSubscriberError) throw new ServiceNotApplicableError('the service is not available for this phone number');
      throw err;
    }
    await this.deps.sinks.check(req.sink);
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
    const all = await this.deps.store.listByPartner(grant.partner.apiKey);
    const now = this.deps.clock.nowMs();
    return all
      .filter((s) => s.expiresAtMs === undefined || s.expiresAtMs > now)
      .filter((s) => grant.phoneNumber === undefined || s.phoneNumber === grant.phoneNumber)
      .sort((a, b) => a.startsAtMs - b.startsAtMs || a.id.localeCompare(b.id));
  }

  async get(grant: AccessGrant, id: string): Promise<SubscriptionRecord> {
    requireScope(grant, SCOPES.subscriptionsRead);
    return this.owned(grant, id);
  }

  /** Deletes it and announces SUBSCRIPTION_DELETED to its sink. */
  async delete(grant: AccessGrant, id: string): Promise<void> {
    requireScope(grant, SCOPES.subscriptionsDelete);
    await this.owned(grant, id);
    await this.end(id, 'SUBSCRIPTION_DELETED');
  }

  /**
   * A swap reported for msisdn (CONTRACT §5): one `swapped` event per live subscription, then
   * `subscription-ended` for those that reached their maximum or had already expired.
   */
  async onSwap(msisdn: string): Promise<number> {
    const now = this.deps.clock.nowMs();
    const subs = await this.deps.store.listByMsisdn(msisdn);
    const out: Delivery[] = [];
    for (const sub of subs) {
      if (sub.expiresAtMs !== undefined && sub.expiresAtMs <= now) {
        const ended = await this.deps.store.remove(sub.id);
        if (ended) out.push(endedEvent(ended, this.newId(), now, expiryReasonOf(ended)));
        continue;
      }
      const count = await this.deps.store.countEvent(sub.id);
      if (sub.maxEvents !== undefined && count > sub.maxEvents) continue;
      out.push(swappedEvent(sub, this.newId(), now));
      if (sub.maxEvents !== undefined && count === sub.maxEvents) {
        const ended = await this.deps.store.remove(sub.id);
        if (ended) out.push(endedEvent(ended, this.newId(), now, 'MAX_EVENTS_REACHED'));
      }
    }
    if (out.length > 0) await this.deps.delivery.enqueue(out);
    return out.length;
  }

  /** Ends subscriptions whose expiry has passed; each instance runs it, each end is announced once. */
  async sweepExpired(): Promise<number> {
    const ids = await this.deps.store.expired(this.deps.clock.nowMs(), SWEEP_BATCH);
    let n = 0;
    for (const id of ids) if (await this.end(id, 'expiry')) n++;
    return n;
  }

  /** Removes it and announces why it ended ('expiry': the reason its expiry carries). */
  private async end(id: string, reason: TerminationReason | 'expiry'): Promise<boolean> {
    const sub = await this.deps.store.remove(id);
    if (!sub) return false;
    const why = reason === 'expiry' ? expiryReasonOf(sub) : reason;
    await this.deps.delivery.enqueue([endedEvent(sub, this.newId(), this.deps.clock.nowMs(), why)]);
    return true;
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
  if (!grant.scopes.has(scope)) throw new ForbiddenError('Client does not have sufficient permissions to perform this action.');
}
