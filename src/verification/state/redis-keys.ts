/*
 * Where a partner's state lives on Redis. The api key is a hash tag, so a partner's rate
 * bucket and all its txn_ids sit in one hash slot: the admission script charges the bucket
 * and claims the txn_id atomically, in one round trip, on a cluster too (docs/redis.md).
 * Api keys are [A-Za-z0-9._~-]{4,128} (partner registry): no braces, never empty, no colon.
 *
 *   rate bucket  <prefix>{<apiKey>}:r
 *   txn_id       <prefix>{<apiKey>}:t:<txn_id>
 *   quota count  <prefix>{<apiKey>}:q:<rest>
 */

/** The rate bucket of a partner (port key: the api key). */
export function rateKey(prefix: string, apiKey: string): string {
  return `${prefix}{${apiKey}}:r`;
}

/** A txn_id record (port key: `<apiKey>:<txn_id>`, split at the first colon). */
export function txnKey(prefix: string, key: string): string {
  const i = key.indexOf(':');
  return i < 0 ? `${prefix}{${key}}:t:` : `${prefix}{${key.slice(0, i)}}:t:${key.slice(i + 1)}`;
}

/** A quota count (port key: `<apiKey>:<rest>`, split at the first colon), beside the partner's other keys. */
export function quotaKey(prefix: string, key: string): string {
  const i = key.indexOf(':');
  return i < 0 ? `${prefix}{${key}}:q:` : `${prefix}{${key.slice(0, i)}}:q:${key.slice(i + 1)}`;
}
