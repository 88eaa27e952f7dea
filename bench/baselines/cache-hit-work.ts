import { Redis } from 'ioredis';

/**
 * The Redis work of a KYC cache hit in the fewest round trips, shared by B1 (node:http) and
 * B2 (Express): claim the txn_id and read the cache in one pipelined round trip (SET NX ... GET
 * returns a held claim without a script), then store the answer for replays, as CONTRACT §1.4
 * requires. The store is sent, not awaited: one round trip before the answer, as the service
 * does (docs/redis.md, "One round trip for a request"). No auth, rate limit, validation, logging or metrics.
 */
const TXN_TTL_MS = 86_400_000;
const CACHE_TTL_MS = 3_600_000;

export function connectRedis(): Redis {
  return new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { enableAutoPipelining: true, maxRetriesPerRequest: 0 });
}

export async function cacheHit(redis: Redis, txnId: string, msisdn: string): Promise<{ status: number; body: string }> {
  const txnKey = `b1:t:bench:${txnId}`;
  const cacheKey = `b1:c:kyc:${msisdn}`;
  const [held, cached] = await Promise.all([
    redis.set(txnKey, `ckyc|${msisdn}|`, 'PX', 60_000, 'NX', 'GET'),
    redis.get(cacheKey),
  ]);
  if (held !== null) return { status: 409, body: '{"code":"11111","desc":"Error Process: txn_id already used"}' };
  if (cached === null) {
    // First sight of the number (warm-up only): store what the HLR would have said.
    await redis.set(cacheKey, `${Date.now().toString(36)}|apt`, 'PX', CACHE_TTL_MS);
  }
  const body = JSON.stringify({
    code: '00000', desc: 'Success',
    result: { msisdn, is_prepaid: 'true', is_active: 'true', is_valid: 'true' },
  });
  redis.set(txnKey, `d${body}`, 'PX', TXN_TTL_MS).catch(() => undefined);
  return { status: 200, body };
}
