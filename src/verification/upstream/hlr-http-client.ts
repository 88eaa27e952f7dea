import { CALL_FORWARDING_SERVICES, CallForwardingService, HlrClient, HlrRecord, PaymentType, SubscriberStatus } from '../ports/upstreams';
import { HttpUpstream, HttpUpstreamOptions } from './http-upstream';
import { optionalInstant } from './rfc3339';

const STATUSES = new Set<string>(['active', 'inactive', 'suspended', 'terminated']);
const PAYMENT_TYPES = new Set<string>(['prepaid', 'postpaid', 'business']);

/**
 * The active forwarding services in a fixed order; absent or null = unknown (null). Anything
 * but a list of known services is an upstream fault, as a wrong status is.
 */
function callForwardingOf(value: unknown): CallForwardingService[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || !value.every((v) => (CALL_FORWARDING_SERVICES as readonly unknown[]).includes(v))) {
    throw new Error('unexpected callForwarding');
  }
  return CALL_FORWARDING_SERVICES.filter((s) => value.includes(s));
}

/** An optional HLR flag, kept only when known: absent or null = unknown; anything but a boolean is an upstream fault. */
function flagOf(value: unknown, name: 'contentLock' | 'parentalControl'): Partial<Record<typeof name, boolean>> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'boolean') throw new Error(`unexpected ${name}`);
  return { [name]: value };
}

/**
 * Reads `{"msisdn","status","paymentType","activatedAt"?,"deviceFirstSeenAt"?,"deviceChangedAt"?,
 * "callForwarding"?,"contentLock"?,"parentalControl"?}` (CONTRACT §3, §7, §11, §13); anything else is an upstream fault. An optional
 * field absent or null means the HLR does not know, or never (null).
 */
export function parseHlrBody(body: unknown): HlrRecord {
  const b = body as {
    status?: unknown; paymentType?: unknown; activatedAt?: unknown; deviceFirstSeenAt?: unknown; deviceChangedAt?: unknown; callForwarding?: unknown;
    contentLock?: unknown; parentalControl?: unknown;
  } | null;
  if (typeof b !== 'object' || b === null || !STATUSES.has(b.status as string) || !PAYMENT_TYPES.has(b.paymentType as string)) {
    throw new Error('unexpected HLR body');
  }
  return {
    status: b.status as SubscriberStatus,
    paymentType: b.paymentType as PaymentType,
    activatedAtMs: optionalInstant(b.activatedAt, 'activatedAt'),
    deviceFirstSeenAtMs: optionalInstant(b.deviceFirstSeenAt, 'deviceFirstSeenAt'),
    deviceChangedAtMs: optionalInstant(b.deviceChangedAt, 'deviceChangedAt'),
    callForwarding: callForwardingOf(b.callForwarding),
    ...flagOf(b.contentLock, 'contentLock'),
    ...flagOf(b.parentalControl, 'parentalControl'),
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
