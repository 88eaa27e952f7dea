import { HlrRecord, PaymentType, SimRecord, SubscriberStatus } from './ports/upstreams';

/*
 * Cache values are compact strings: they are written on every miss and read on every hit,
 * and in Redis every byte is memory. A value that does not decode is treated as a miss.
 *   HLR:  "-" not a subscriber, else "<status>/<paymentType>/<activatedAt>"
 *   SIM:  "-" not a subscriber, else "<lastSimSwapAt>/<simActivatedAt>"
 * where an instant is its epoch milliseconds and "n" means null (unknown, or never swapped).
 *
 * Entries written before activatedAt/simActivatedAt existed ("<status>/<paymentType>", and
 * "n" or "<ms>" for the SIM) still decode, without the new field (undefined): the legacy
 * operations answer from them as before, and the CAMARA ones know to refetch.
 */
const NOT_SUBSCRIBER = '-';
const NULL = 'n';
const INSTANT = /^-?\d{1,16}$/;
const STATUSES: ReadonlySet<string> = new Set<SubscriberStatus>(['active', 'inactive', 'suspended', 'terminated']);
const PAYMENT_TYPES: ReadonlySet<string> = new Set<PaymentType>(['prepaid', 'postpaid', 'business']);

function encodeInstant(ms: number | null): string {
  return ms === null ? NULL : String(ms);
}

/** null for "n", the number for an instant, undefined when the text is neither. */
function decodeInstant(text: string): number | null | undefined {
  if (text === NULL) return null;
  return INSTANT.test(text) ? Number(text) : undefined;
}

export function encodeHlr(rec: HlrRecord | null): string {
  if (rec === null) return NOT_SUBSCRIBER;
  const base = `${rec.status}/${rec.paymentType}`;
  return rec.activatedAtMs === undefined ? base : `${base}/${encodeInstant(rec.activatedAtMs)}`;
}

export function decodeHlr(value: string): HlrRecord | null | undefined {
  if (value === NOT_SUBSCRIBER) return null;
  const [status, paymentType, activated, extra] = value.split('/');
  if (extra !== undefined || !STATUSES.has(status) || !PAYMENT_TYPES.has(paymentType)) return undefined;
  const rec: HlrRecord = { status: status as SubscriberStatus, paymentType: paymentType as PaymentType };
  if (activated === undefined) return rec;
  const activatedAtMs = decodeInstant(activated);
  if (activatedAtMs === undefined) return undefined;
  rec.activatedAtMs = activatedAtMs;
  return rec;
}

export function encodeSim(rec: SimRecord | null): string {
  if (rec === null) return NOT_SUBSCRIBER;
  const swap = encodeInstant(rec.lastSimSwapAtMs);
  return rec.simActivatedAtMs === undefined ? swap : `${swap}/${encodeInstant(rec.simActivatedAtMs)}`;
}

export function decodeSim(value: string): SimRecord | null | undefined {
  if (value === NOT_SUBSCRIBER) return null;
  const [swap, activated, extra] = value.split('/');
  if (extra !== undefined) return undefined;
  const lastSimSwapAtMs = decodeInstant(swap);
  if (lastSimSwapAtMs === undefined) return undefined;
  const rec: SimRecord = { lastSimSwapAtMs };
  if (activated === undefined) return rec;
  const simActivatedAtMs = decodeInstant(activated);
  if (simActivatedAtMs === undefined) return undefined;
  rec.simActivatedAtMs = simActivatedAtMs;
  return rec;
}
