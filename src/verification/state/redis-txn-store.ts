import { TxnClaim, TxnStore } from '../ports/state-store';
import { RedisClient } from './redis-connection';
import { txnKey } from './redis-keys';
import { ReplicationWait } from './redis-replication-wait';

/*
 * One string per txn_id under `<prefix>{<apiKey>}:t:<txn_id>` (redis-keys.ts), with a Redis TTL:
 *   in flight: "c<fingerprint>[\x1f<owner>]"                TTL = TXN_IN_FLIGHT_TTL_S
 *   done:      "d<length of fingerprint>:<fingerprint><outcome>"   TTL = TXN_TTL_S
 * The length prefix lets the outcome follow the fingerprint without an escape scheme, and lets
 * the scripts compare a fingerprint by plain prefix match (redis-scripts.ts). Only this file
 * parses values; the length is in UTF-16 units because only JavaScript reads it.
 */
/**
 * A claim may carry its request's owner token after a 0x1F (never in a fingerprint: operation,
 * digits and `+`, max_age), so a release after a timed-out claim frees only that request's claim.
 */
const OWNER_SEPARATOR = '\x1f';
export const inFlightValue = (fingerprint: string, owner?: string) =>
  owner === undefined ? `c${fingerprint}` : `c${fingerprint}${OWNER_SEPARATOR}${owner}`;
export const donePrefix = (fingerprint: string) => `d${fingerprint.length}:${fingerprint}`;

export function decodeTxnRecord(raw: string): TxnClaim | null {
  if (raw.startsWith('c')) {
    const end = raw.indexOf(OWNER_SEPARATOR);
    return { status: 'in-flight', fingerprint: raw.slice(1, end < 0 ? undefined : end) };
  }
  if (!raw.startsWith('d')) return null;
  const colon = raw.indexOf(':');
  const len = Number(raw.slice(1, colon));
  if (colon < 2 || !Number.isSafeInteger(len) || colon + 1 + len > raw.length) return null;
  return { status: 'done', fingerprint: raw.slice(colon + 1, colon + 1 + len), outcome: raw.slice(colon + 1 + len) };
}

export const ttlMsOf = (ttlS: number) => Math.max(1, Math.round(ttlS * 1000));

/** What a claim found, from the value it read back (null or absent: the claim was ours). */
export function claimOf(held: string | null | undefined): TxnClaim {
  if (held === null || held === undefined) return { status: 'claimed' };
  // A value this version cannot read still means "taken": refusing is safe, reusing is not.
  return decodeTxnRecord(held) ?? { status: 'in-flight', fingerprint: '' };
}

/**
 * txn_id records shared by every instance: claims are atomic (SET NX in a script). With a
 * replication wait (REDIS_WAIT_REPLICAS), an outcome is on a replica (with the claim before
 * it) before it counts, so a failover cannot lose an answer's record (redis-replication-wait.ts).
 */
export class RedisTxnStore implements TxnStore {
  constructor(private readonly client: RedisClient, private readonly keyPrefix: string, private readonly replication?: ReplicationWait) {}

  async claim(key: string, fingerprint: string, ttlS: number, owner?: string): Promise<TxnClaim> {
    return claimOf(await this.client.vcTxnClaim(txnKey(this.keyPrefix, key), inFlightValue(fingerprint, owner), ttlMsOf(ttlS)));
  }

  async complete(key: string, fingerprint: string, outcome: string, ttlS: number): Promise<void> {
    const prefix = donePrefix(fingerprint);
    const redisKey = txnKey(this.keyPrefix, key);
    const send = () => this.client.vcTxnComplete(redisKey, inFlightValue(fingerprint), prefix, prefix + outcome, ttlMsOf(ttlS));
    if (this.replication) await this.replication.after(this.client, redisKey, send);
    else await send();
  }

  async release(key: string, fingerprint: string, owner?: string): Promise<void> {
    await this.client.vcTxnRelease(txnKey(this.keyPrefix, key), inFlightValue(fingerprint, owner));
  }
}
