import { SimClient, SimRecord } from '../../domain/ports/upstreams';
import { HttpUpstream, HttpUpstreamOptions } from './http-upstream';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** Reads `{"msisdn","iccid","lastSimSwapAt": RFC 3339 or null}` (CONTRACT §3). */
export function parseSimBody(body: unknown): SimRecord {
  const b = body as { lastSimSwapAt?: unknown } | null;
  if (typeof b !== 'object' || b === null || !('lastSimSwapAt' in b)) throw new Error('unexpected SIM body');
  if (b.lastSimSwapAt === null) return { lastSimSwapAtMs: null };
  if (typeof b.lastSimSwapAt !== 'string' || !RFC3339.test(b.lastSimSwapAt)) throw new Error('unexpected lastSimSwapAt');
  const ms = Date.parse(b.lastSimSwapAt);
  if (Number.isNaN(ms)) throw new Error('unexpected lastSimSwapAt');
  return { lastSimSwapAtMs: ms };
}

/** SIM management over HTTP: GET {SIM_URL}/subscribers/{msisdn}/sim. */
export class SimHttpClient implements SimClient {
  readonly upstream: HttpUpstream<SimRecord>;

  constructor(opts: Omit<HttpUpstreamOptions<SimRecord>, 'name' | 'parse'>) {
    this.upstream = new HttpUpstream({ ...opts, name: 'sim', parse: parseSimBody });
  }

  lookup(msisdn: string): Promise<SimRecord | null> {
    return this.upstream.get(`/subscribers/${encodeURIComponent(msisdn)}/sim`);
  }
}
