import { HlrRecord, PaymentType, SimRecord, SubscriberStatus } from './ports/upstreams';

/*
 * Cache values are compact strings: they are written on every miss and read on every hit,
 * and in Redis every byte is memory. A value that does not decode is treated as a miss.
 *   HLR:  "-" not a subscriber, else "<status>/<paymentType>"
 *   SIM:  "-" not a subscriber, "n" never swapped, else the swap's epoch milliseconds
 */
const NOT_SUBSCRIBER = '-';
const STATUSES: ReadonlySet<string> = new Set<SubscriberStatus>(['active', 'inactive', 'suspended', 'terminated']);
const PAYMENT_TYPES: ReadonlySet<string> = new Set<PaymentType>(['prepaid', 'postpaid']);

export function encodeHlr(rec: HlrRecord | null): string {
  return rec === null ? NOT_SUBSCRIBER : `${rec.status}/${rec.paymentType}`;
}

export function decodeHlr(value: string): HlrRecord | null | undefined {
  if (value === NOT_SUBSCRIBER) return null;
  const [status, paymentType, extra] = value.split('/');
  if (extra !== undefined || !STATUSES.has(status) || !PAYMENT_TYPES.has(paymentType)) return undefined;
  return { status: status as SubscriberStatus, paymentType: paymentType as PaymentType };
}

export function encodeSim(rec: SimRecord | null): string {
  if (rec === null) return NOT_SUBSCRIBER;
  return rec.lastSimSwapAtMs === null ? 'n' : String(rec.lastSimSwapAtMs);
}

export function decodeSim(value: string): SimRecord | null | undefined {
  if (value === NOT_SUBSCRIBER) return null;
  if (value === 'n') return { lastSimSwapAtMs: null };
  if (!/^-?\d{1,16}$/.test(value)) return undefined;
  return { lastSimSwapAtMs: Number(value) };
}
