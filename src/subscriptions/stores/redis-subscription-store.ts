import { UpstreamUnavailableError } from '../../errors/domain-errors';
import { SubscriptionStore } from '../ports/subscription-store';
import { SubscriptionRecord } from '../domain/subscription';
import { RedisClient, closeClient } from '../../verification/state/redis-connection';
import { CredentialCipher } from '../delivery/sink-credential-cipher';

/*
 * Subscriptions on Redis (standalone or Cluster). Keys, all under one hash tag so that a
 * subscription and its indexes change in one MULTI on one Cluster slot:
 *   <prefix>{subs}:sub:<id>          the record (JSON), the one key per subscription
 *   <prefix>{subs}:counted:<id>      SET of the events counted (their swap keys): counting is
 *                                    idempotent, so a retried report never counts twice
 *   <prefix>{subs}:count:<id>        events counted by earlier versions (INCR), added to the set's size
 *   <prefix>{subs}:phone:<msisdn>    SET of ids (swap matching)
 *   <prefix>{subs}:partner:<apiKey>  SET of ids (listing)
 *   <prefix>{subs}:expiry            ZSET id -> expiry ms (the sweep)
 * One slot bounds them to one Cluster shard: ample for subscriptions (kilobytes each);
 * deliveries, the heavy part, live in BullMQ's own keys.
 */
export class RedisSubscriptionStore implements SubscriptionStore {
  private readonly ns: string;

  /** cipher: sink credentials are stored encrypted, and stay so until the delivery opens them. */
  constructor(private readonly client: RedisClient, keyPrefix: string, private readonly cipher: CredentialCipher) {
    // A prefix that already holds a hash tag would decide the slot itself; keep ours.
    this.ns = `${keyPrefix.replace(/[{}]/g, '')}{subs}:`;
  }

  private key(kind: string, id: string): string {
    return `${this.ns}${kind}:${id}`;
  }

  private async run<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      throw new UpstreamUnavailableError('subscription store unavailable', undefined, { cause: err });
    }
  }

  add(sub: SubscriptionRecord): Promise<void> {
    return this.run(async () => {
      const m = this.client.multi()
        .set(this.key('sub', sub.id), JSON.stringify(sub.credential ? { ...sub, credential: this.cipher.seal(sub.credential, sub.id) } : sub))
        .sadd(this.key('phone', sub.msisdn), sub.id)
        .sadd(this.key('partner', sub.partner), sub.id);
      if (sub.expiresAtMs !== undefined) m.zadd(`${this.ns}expiry`, sub.expiresAtMs, sub.id);
      check(await m.exec());
    });
  }

  get(id: string): Promise<SubscriptionRecord | undefined> {
    return this.run(async () => parse(await this.client.get(this.key('sub', id))));
  }

  private async many(ids: string[]): Promise<SubscriptionRecord[]> {
    if (ids.length === 0) return [];
    const raw = await this.client.mget(...ids.map((id) => this.key('sub', id)));
    return raw.map(parse).filter((s): s is SubscriptionRecord => s !== undefined);
  }

  listByPartner(partner: string): Promise<SubscriptionRecord[]> {
    return this.run(async () => this.many(await this.client.smembers(this.key('partner', partner))));
  }

  listByMsisdn(msisdn: string): Promise<SubscriptionRecord[]> {
    return this.run(async () => this.many(await this.client.smembers(this.key('phone', msisdn))));
  }

  eventState(id: string, key: string): Promise<{ count: number; counted: boolean }> {
    return this.run(async () => {
      const r = await this.client.multi().scard(this.key('counted', id)).sismember(this.key('counted', id), key).get(this.key('count', id)).exec();
      check(r);
      const [[, size], [, member], [, legacy]] = r as [Error | null, unknown][];
      return { count: Number(size) + Number(legacy ?? 0), counted: member === 1 };
    });
  }

  countEvent(id: string, key: string): Promise<number> {
    return this.run(async () => {
      const r = await this.client.multi().sadd(this.key('counted', id), key).scard(this.key('counted', id)).get(this.key('count', id)).exec();
      check(r);
      const [, [, size], [, legacy]] = r as [Error | null, unknown][];
      return Number(size) + Number(legacy ?? 0);
    });
  }

  countByPartner(partner: string): Promise<number> {
    return this.run(() => this.client.scard(this.key('partner', partner)));
  }

  /** GETDEL decides the one remover; the indexes follow in one MULTI. */
  remove(id: string): Promise<SubscriptionRecord | undefined> {
    return this.run(async () => {
      const sub = parse(await this.client.getdel(this.key('sub', id)));
      if (!sub) return undefined;
      check(await this.client.multi()
        .del(this.key('count', id), this.key('counted', id))
        .srem(this.key('phone', sub.msisdn), id)
        .srem(this.key('partner', sub.partner), id)
        .zrem(`${this.ns}expiry`, id)
        .exec());
      return sub;
    });
  }

  expired(nowMs: number, limit: number): Promise<string[]> {
    return this.run(() => this.client.zrangebyscore(`${this.ns}expiry`, '-inf', nowMs, 'LIMIT', 0, limit));
  }

  close(): Promise<void> {
    return closeClient(this.client);
  }
}

function parse(raw: string | null): SubscriptionRecord | undefined {
  return raw === null ? undefined : JSON.parse(raw) as SubscriptionRecord;
}

function check(results: [Error | null, unknown][] | null): void {
  if (!results) throw new Error('transaction aborted');
  for (const [err] of results) if (err) throw err;
}
