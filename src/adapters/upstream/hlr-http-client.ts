import { HlrClient, HlrRecord, PaymentType, SubscriberStatus } from '../../domain/ports/upstreams';
import { HttpUpstream, HttpUpstreamOptions } from './http-upstream';

const STATUSES = new Set<string>(['active', 'inactive', 'suspended', 'terminated']);
const PAYMENT_TYPES = new Set<string>(['prepaid', 'postpaid']);

/** Reads `{"msisdn","status","paymentType"}` (CONTRACT §3); anything else is an upstream fault. */
export function parseHlrBody(body: unknown): HlrRecord {
  const b = body as { status?: unknown; paymentType?: unknown } | null;
  if (typeof b !== 'object' || b === null || !STATUSES.has(b.status as string) || !PAYMENT_TYPES.has(b.paymentType as string)) {
    throw new Error('unexpected HLR body');
  }
  return { status: b.status as SubscriberStatus, paymentType: b.paymentType as PaymentType };
}

/** HLR over HTTP: GET {HLR_URL}/subscribers/{msisdn}. */
export class HlrHttpClient implements HlrClient {
  readonly upstream: HttpUpstream<HlrRecord>;

  constructor(opts: Omit<HttpUpstreamOptions<HlrRecord>, 'name' | 'parse'>) {
    this.upstream = new HttpUpstream({ ...opts, name: 'hlr', parse: parseHlrBody });
  }

  lookup(msisdn: string): Promise<HlrRecord | null> {
    return this.upstream.get(`/subscribers/${encodeURIComponent(msisdn)}`);
  }
}
