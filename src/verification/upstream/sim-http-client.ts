import { SimClient, SimRecord } from '../ports/upstreams';
import { HttpUpstream, HttpUpstreamOptions } from './http-upstream';
import { optionalInstant, requiredInstant } from './rfc3339';

/**
 * Reads `{"msisdn","iccid","lastSimSwapAt": RFC 3339 or null,"simActivatedAt"?}` (CONTRACT §3, §7).
 * `lastSimSwapAt` must be present; `simActivatedAt` absent or null means unknown (null).
 */
export function parseSimBody(body: unknown): SimRecord {
  const b = body as { lastSimSwapAt?: unknown; simActivatedAt?: unknown } | null;
  if (typeof b !== 'object' || b === null || !('lastSimSwapAt' in b)) throw new Error('unexpected SIM body');
  return {
    lastSimSwapAtMs: b.lastSimSwapAt === null ? null : requiredInstant(b.lastSimSwapAt, 'lastSimSwapAt'),
    simActivatedAtMs: optionalInstant(b.simActivatedAt, 'simActivatedAt'),
  };
}

/** SIM management over HTTP: GET {SIM_URL}/subscribers/{msisdn}/sim. */
export class SimHttpClient implements SimClient {
  readonly upstream: HttpUpstream<SimRecord>;

  constructor(opts: Omit<HttpUpstreamOptions<SimRecord>, 'name' | 'parse'>) {
    this.upstream = new HttpUpstream({ ...opts, name: 'sim', parse: parseSimBody });
  }

  lookup(msisdn: string): Promise<SimRecord | null> {
    return this.upstream.get(`/subscribers/${encodeURIComponent(msisdn)}/sim`, msisdn);
  }
}
