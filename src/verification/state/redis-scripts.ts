import { Cluster, Redis, Result } from 'ioredis';

/*
 * The store's Lua scripts. Each touches one key, except vcAdmit, whose two keys (a partner's
 * rate bucket and one of its txn_ids) share the partner's hash tag: every script runs on one
 * node of a cluster and never crosses hash slots. ioredis sends EVALSHA and falls back to EVAL on a
 * connection that has not seen the script yet, so a restarted Redis (empty script cache)
 * needs nothing from us.
 *
 * txn_id record values (see redis-txn-store.ts):
 *   in flight: "c" .. fingerprint [.. "\x1f" .. owner token]
 *   done:      "d" .. len(fingerprint) .. ":" .. fingerprint .. outcome
 */

/** SET NX with TTL; when the key is already held, its value, in the same round trip. */
const TXN_CLAIM = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return false end
return redis.call('GET', KEYS[1])
`;

/**
 * Stores the outcome unless another request's fingerprint holds the key. This fingerprint's
 * claim counts whoever made it (with or without an owner token after a 0x1F).
 * ARGV: in-flight value of this fingerprint, done-prefix of this fingerprint, done value, ttl ms.
 */
const TXN_COMPLETE = `
local v = redis.call('GET', KEYS[1])
if v and v ~= ARGV[1] and string.sub(v, 1, #ARGV[1] + 1) ~= ARGV[1] .. '\\31' and string.sub(v, 1, #ARGV[2]) ~= ARGV[2] then return 0 end
redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
return 1
`;

/** Compare-and-delete: frees the txn_id only while it is still this fingerprint's unfinished claim. */
const TXN_RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * Token bucket in a small hash {t = tokens, u = last update ms}. Time comes from the caller,
 * like the in-memory limiter, and never runs backwards for a bucket: an instance whose clock
 * is behind refills nothing rather than a negative amount. A cost above the burst is refused.
 * Arguments: bucket key, now ms, tokens per second, burst, key ttl ms, tokens needed.
 * Returns allowed (0|1) and, when refused, the wait in ms.
 */
const TAKE_FUNCTION = `
local function take(key, now, rate, burst, ttl, need)
  local b = redis.call('HMGET', key, 't', 'u')
  local tokens = tonumber(b[1])
  local updated = tonumber(b[2])
  if not tokens or not updated then
    tokens = burst
    updated = now
  end
  if now > updated then
    tokens = math.min(burst, tokens + (now - updated) / 1000 * rate)
    updated = now
  end
  local allowed = 0
  local retry = 0
  if tokens >= need then
    tokens = tokens - need
    allowed = 1
  else
    retry = math.ceil((need - tokens) / rate * 1000)
  end
  redis.call('HSET', key, 't', string.format('%.17g', tokens), 'u', string.format('%.17g', updated))
  redis.call('PEXPIRE', key, ttl)
  return allowed, retry
end
`;

/** ARGV: now ms, tokens per second, burst, key ttl ms, tokens needed. Returns {allowed 0|1, retry-after ms}. */
const RATE_TAKE = `${TAKE_FUNCTION}
local allowed, retry = take(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5]))
return {allowed, retry}
`;

/**
 * Cache compare-and-set: writes ARGV[2] only while the key still holds ARGV[1] (the raw value a
 * read saw; '' = absent). The key's TTL becomes ARGV[3] ms, or what it had left if that is
 * longer, so an eviction's tombstone hold outlives a refill with a shorter TTL.
 */
const CACHE_SET = `
local v = redis.call('GET', KEYS[1])
if (v or '') ~= ARGV[1] then return 0 end
local ttl = tonumber(ARGV[3])
if v then
  local left = redis.call('PTTL', KEYS[1])
  if left > ttl then ttl = left end
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ttl)
return 1
`;

/**
 * Admission in one round trip: the partner's rate bucket (KEYS[1]), then, only if it allowed
 * the request, the txn_id claim (KEYS[2], same hash slot). ARGV 1-5 as RATE_TAKE, then the
 * in-flight value and its ttl ms. Returns {0, retry ms} refused; {1, 0} claimed;
 * {1, 0, value held} when the txn_id was already held.
 */
const ADMIT = `${TAKE_FUNCTION}
local allowed, retry = take(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5]))
if allowed == 0 then return {0, retry} end
if redis.call('SET', KEYS[2], ARGV[6], 'NX', 'PX', ARGV[7]) then return {1, 0} end
return {1, 0, redis.call('GET', KEYS[2])}
`;

/**
 * A count within a window: refused (0) once ARGV[1] uses are counted, else counted (1); the key
 * expires at ARGV[2] (epoch ms), the end of the window its name carries.
 */
const QUOTA_TAKE = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return 1
`;

/** One use given back (never below zero); the key keeps its expiry. Returns the count before. */
const QUOTA_GIVE_BACK = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
return n
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    vcTxnClaim(key: string, value: string, ttlMs: number): Result<string | null, Context>;
    vcTxnComplete(key: string, inFlight: string, donePrefix: string, done: string, ttlMs: number): Result<number, Context>;
    vcTxnRelease(key: string, inFlight: string): Result<number, Context>;
    vcCacheSet(key: string, version: string, value: string, ttlMs: number): Result<number, Context>;
    vcRateTake(key: string, nowMs: number, perSecond: number, burst: number, ttlMs: number, need: number): Result<[number, number], Context>;
    vcQuotaTake(key: string, limit: number, expireAtMs: number): Result<number, Context>;
    vcQuotaGiveBack(key: string): Result<number, Context>;
    vcAdmit(rateKey: string, txnKey: string, nowMs: number, perSecond: number, burst: number, ttlMs: number, need: number,
      inFlight: string, txnTtlMs: number): Result<[number, number, string?], Context>;
  }
}

/** Registers the scripts as commands of the client (EVALSHA with EVAL fallback). */
export function defineStateScripts(client: Redis | Cluster): void {
  client.defineCommand('vcTxnClaim', { numberOfKeys: 1, lua: TXN_CLAIM });
  client.defineCommand('vcTxnComplete', { numberOfKeys: 1, lua: TXN_COMPLETE });
  client.defineCommand('vcTxnRelease', { numberOfKeys: 1, lua: TXN_RELEASE });
  client.defineCommand('vcRateTake', { numberOfKeys: 1, lua: RATE_TAKE });
  client.defineCommand('vcCacheSet', { numberOfKeys: 1, lua: CACHE_SET });
  client.defineCommand('vcAdmit', { numberOfKeys: 2, lua: ADMIT });
  client.defineCommand('vcQuotaTake', { numberOfKeys: 1, lua: QUOTA_TAKE });
  client.defineCommand('vcQuotaGiveBack', { numberOfKeys: 1, lua: QUOTA_GIVE_BACK });
}
