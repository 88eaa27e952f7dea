/**
 * Which errors mean "this Redis cannot serve right now" (the store falls back to memory) and
 * which are a bug (a command's own error, or a programming error such as a TypeError in an
 * adapter), which must surface as a 500 and leave the store on Redis: a bug that flipped the
 * store into degraded mode would hide behind the fallback and weaken every txn_id guarantee.
 *
 * An allow-list, read from ioredis 5 (built/redis, built/cluster, redis-errors) and Node's
 * socket errors: anything not on it is a bug.
 */

/** Thrown by this adapter where it finds Redis not serving (a probe, a discarded pipeline). */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/*
 * Replies that mean "not serving now": a cluster without a majority or mid-failover, a replica
 * answering a write, a server still loading its data, busy with a script or out of memory.
 */
const UNAVAILABLE_REPLY = /^(CLUSTERDOWN|TRYAGAIN|LOADING|MASTERDOWN|READONLY|BUSY|OOM|NOREPLICAS)\b/;

/*
 * ioredis error classes that are all about the connection: AbortError (a command aborted as
 * the connection closed, a cluster ended), MaxRetriesPerRequestError (its subclass),
 * ClusterAllFailedError (no node answered a slots refresh), RedisError used bare for a
 * discarded or aborted connection.
 */
const UNAVAILABLE_NAMES = new Set(['AbortError', 'MaxRetriesPerRequestError', 'ClusterAllFailedError', 'RedisError', 'RedisUnavailableError']);

// Plain `Error`s ioredis raises when it has no usable connection or the command timed out.
const UNAVAILABLE_MESSAGE = new RegExp([
  '^Connection is closed\\.',
  "^Stream isn't writeable",
  '^Command timed out',
  "^Cluster isn't ready",
  '^Cluster is disconnect',
  '^Cluster is ended',
  '^None of startup nodes is available',
  '^Too many Cluster redirections',
  '^Node is disconnected',
  '^Failed to refresh slots cache',
  '^Socket timeout',
  '^connect ETIMEDOUT',
].join('|'));

// Socket-level failures, as Node reports them in `code` (resolving, connecting, writing).
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN',
  'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH', 'ENETDOWN', 'ENOTCONN', 'ERR_SOCKET_CLOSED', 'ERR_STREAM_DESTROYED',
]);

/** True when err says Redis is unreachable or not serving; false for anything else, which must surface. */
export function isRedisUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'ReplyError') return UNAVAILABLE_REPLY.test(err.message);
  if (UNAVAILABLE_NAMES.has(err.name)) return true;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  // Only a plain Error may match by message: a TypeError saying "Connection is closed." is still a bug.
  return err.constructor === Error && UNAVAILABLE_MESSAGE.test(err.message);
}

/**
 * True when err says only that a command outlived its timeout: the connection may be sound and
 * the command may still run. Slow is not unavailable: a txn_id claim that timed out has an
 * unknown outcome (answered 9999/503), and only a failed health check moves state to memory.
 */
export function isRedisTimeout(err: unknown): boolean {
  return err instanceof Error && err.constructor === Error && /^Command timed out/.test(err.message);
}
