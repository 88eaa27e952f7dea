import { Redis } from 'ioredis';
import { defineStateScripts } from '../../src/verification/state/redis-scripts';

/**
 * S1's Redis commands, exactly, for B3 and B4: the service's admission script (rate bucket +
 * txn_id claim, one EVALSHA) sent with the cache GET in one round trip, then, after the answer,
 * the completion script; the scripts are the service's own (redis-scripts.ts). No auth,
 * validation, logging, metrics or cache decoding: whatever S1 costs beyond this is the service.
 */
const TXN_TTL_MS = 86_400_000;
const IN_FLIGHT_TTL_MS = 60_000;
const CACHE_TTL_MS = 3_600_000;
const RATE = [1_000_000, 1_000_000, 2_000, 1] as const;

export function connectScriptedRedis(): Redis {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { enableAutoPipelining: true, maxRetriesPerRequest: 0 });
  defineStateScripts(redis);
  return redis;
}

/** Admission and cache read in one round trip; with `lookup` (B4) every request is a miss that calls it and stores nothing. */
export async function serviceWork(redis: Redis, txnId: string, msisdn: string, lookup?: (msisdn: string) => Promise<unknown>): Promise<{ status: number; body: string }> {
  const txnKey = `b3:{bench}:t:${txnId}`;
  const cacheKey = `b3:c:kyc:${msisdn}`;
  const fingerprint = `kyc|${msisdn}`;
  const [[allowed, , held], cached] = await Promise.all([
    redis.vcAdmit('b3:{bench}:r', txnKey, Date.now(), ...RATE, `c${fingerprint}`, IN_FLIGHT_TTL_MS),
    redis.get(cacheKey),
  ]);
  if (allowed !== 1) return { status: 429, body: '{"code":"11111","desc":"Error Process: rate limited"}' };
  if (held !== undefined) return { status: 409, body: '{"code":"11111","desc":"Error Process: txn_id already used"}' };
  if (lookup) await lookup(msisdn);
  else if (cached === null) await redis.set(cacheKey, `${Date.now().toString(36)}|apt`, 'PX', CACHE_TTL_MS); // warm-up's first sight
  const body = JSON.stringify({ code: '00000', desc: 'Success', result: { msisdn, is_prepaid: 'true', is_active: 'true', is_valid: 'true' } });
  const prefix = `d${fingerprint.length}:${fingerprint}`;
  redis.vcTxnComplete(txnKey, `c${fingerprint}`, prefix, prefix + body, TXN_TTL_MS).catch(() => undefined);
  return { status: 200, body };
}
