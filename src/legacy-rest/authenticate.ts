import { Request } from 'express';
import { Credentials } from '../partners/authenticator';

function one(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * Credentials from the query string (CONTRACT §1.5); a repeated parameter counts as absent.
 * The routes authenticate with them before the body is read, so an unsigned caller costs no
 * parsing; the client address (req.ip: the socket's peer, or X-Forwarded-For as far as
 * TRUST_PROXY_HOPS trusts it, counted as ../http/client-address.ts says) is what failed
 * signatures are throttled by, alone and paired with the api key.
 */
export function queryCredentials(req: Request): Credentials {
  const q = req.query as Record<string, unknown>;
  return { apiKey: one(q.api_key), timestamp: one(q.timestamp), sig: one(q.sig) };
}
