import { HlrClient, HlrRecord, PaymentType, SubscriberStatus } from '../ports/upstreams';
import { HttpUpstream, HttpUpstreamOptions } from './http-upstream';
import { optionalInstant } from './rfc3339';

const STATUSES = new Set<string>(['active', 'inactive', 'suspended', 'terminated']);
const PAYMENT_TYPES = new Set<string>(['prepaid', 'postpaid', 'business']);

/**
 * Reads `{"msisdn","status","paymentType","activatedAt"?}` (CONTRACT §3, §7); anything else is
 * an upstream fault. `activatedAt` absent or null means the HLR does not know (null).
 */
export function parseHlrBody(body: unknown): HlrRecord {
  const b = body as { status?: unknown; paymentType?: unknown; activatedAt?: unknown } | null;
  if (typeof b !== 'object' || b === null || !STATUSES.has(b.status as string) || !PAYMENT_TYPES.has(b.paymentType as string)) {
    throw new Error('unexpected HLR body');
  }
  return {
    status: b.status as SubscriberStatus,
    paymentType: b.paymentType as PaymentType,
    activatedAtMs: optionalInstant(b.activatedAt, 'activatedAt'),
  };
}

/** HLR over HTTP: GET {HLR_URL}/subscribers/{msisdn}. */
export class HlrHttpClient implements HlrClient {
  readonly upstream: HttpUpstream<HlrRecord>;

  constructor(opts: Omit<HttpUpstreamOptions<HlrRecord>, 'name' | 'parse'>) {
    this.upstream = new HttpUpstream({ ...opts, name: 'hlr', parse: parseHlrBody });
  }

  lookup(msisdn: string): Promise<HlrRecord | null> {
    return this.upstream.get(`/subscribers/${encodeURIComponent(msisdn)}`, msisdn);
  }
}
