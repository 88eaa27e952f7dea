import { createHash, createHmac } from 'node:crypto';

export const DEMO = { apiKey: 'demo-key', secret: 'demo-secret' };
export const DEMO_HMAC = { apiKey: 'demo-hmac-key', secret: 'demo-hmac-secret' };
export const DEMO_KYC_ONLY = { apiKey: 'demo-kyc-key', secret: 'demo-kyc-secret' };
export const DEMO_DISABLED = { apiKey: 'demo-disabled-key', secret: 'demo-disabled-secret' };

export function md5Sig(apiKey: string, secret: string, timestamp: string): string {
  return createHash('md5').update(apiKey + secret + timestamp).digest('hex');
}

export function hmacSig(apiKey: string, secret: string, timestamp: string): string {
  return createHmac('sha256', secret).update(apiKey + timestamp).digest('hex');
}

/** A signed query string for a partner, as a seed client would build it. */
export function signedQuery(p: { apiKey: string; secret: string }, opts: { timestamp?: string; omitTimestamp?: boolean; hmac?: boolean } = {}): string {
  const ts = opts.timestamp ?? String(Math.floor(Date.now() / 1000));
  const sig = opts.hmac ? hmacSig(p.apiKey, p.secret, ts) : md5Sig(p.apiKey, p.secret, ts);
  const q = new URLSearchParams({ api_key: p.apiKey });
  if (!opts.omitTimestamp) q.set('timestamp', ts);
  q.set('sig', sig);
  return q.toString();
}

let seq = 0;
/** A fresh, valid txn_id. */
export function txnId(prefix = 't'): string {
  seq += 1;
  return `${prefix}${process.pid.toString(36)}${Date.now().toString(36)}${seq.toString(36)}`.slice(0, 25);
}
