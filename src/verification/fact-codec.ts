import { CALL_FORWARDING_SERVICES, CallForwardingService, HlrRecord, PaymentType, SimRecord, SubscriberStatus } from './ports/upstreams';

/*
 * Cache values are compact strings: they are written on every miss and read on every hit,
 * and in Redis every byte is memory. A value that does not decode is treated as a miss.
 *   HLR:  "-" not a subscriber, else
 *         "<status>/<paymentType>/<activatedAt>/<deviceFirstSeenAt>/<deviceChangedAt>/<callForwarding>[/<locks>]"
 *   SIM:  "-" not a subscriber, else "<lastSimSwapAt>/<simActivatedAt>"
 * where an instant is its epoch milliseconds and "n" means null (unknown, or never swapped);
 * callForwarding is "n" (unknown), "0" (none) or one letter per active service (u, b, r, a);
 * locks is two letters, contentLock then parentalControl, each "t", "f" or "n" (unknown: the
 * field absent), left out when both are unknown (entries without it decode as unknown, not incomplete).
 *
 * Entries written before the device and forwarding fields existed (three HLR fields) still
 * decode, without them; the signal APIs then refetch, as CAMARA does for the tenure fields.
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

const FORWARDING_LETTERS: Readonly<Record<CallForwardingService, string>> = {
  unconditional: 'u', conditional_busy: 'b', conditional_not_reachable: 'r', conditional_no_answer: 'a',
};
const NO_FORWARDING = '0';

function encodeForwarding(services: readonly CallForwardingService[] | null): string {
  if (services === null) return NULL;
  return services.length === 0 ? NO_FORWARDING : services.map((s) => FORWARDING_LETTERS[s]).join('');
}

/** The services in their fixed order; undefined for anything but the encoding above (a letter twice included). */
function decodeForwarding(text: string): CallForwardingService[] | null | undefined {
  if (text === NULL) return null;
  if (text === NO_FORWARDING) return [];
  if (text === '') return undefined;
  const services = CALL_FORWARDING_SERVICES.filter((s) => text.includes(FORWARDING_LETTERS[s]));
  return services.map((s) => FORWARDING_LETTERS[s]).join('') === text ? services : undefined;
}

const FLAG_LETTER = { t: true, f: false, n: undefined } as const;

function encodeFlag(flag: boolean | undefined): string {
  if (flag === true) return 't';
  return flag === false ? 'f' : 'n';
}

/** [contentLock, parentalControl], or undefined when the text is not two flag letters. */
function decodeLocks(text: string): Pick<HlrRecord, 'contentLock' | 'parentalControl'> | undefined {
  if (text.length !== 2 || !(text[0] in FLAG_LETTER) || !(text[1] in FLAG_LETTER)) return undefined;
  const [content, parental] = [FLAG_LETTER[text[0] as keyof typeof FLAG_LETTER], FLAG_LETTER[text[1] as keyof typeof FLAG_LETTER]];
  return { ...(content === undefined ? {} : { contentLock: content }), ...(parental === undefined ? {} : { parentalControl: parental }) };
}

export function encodeHlr(rec: HlrRecord | null): string {
  if (rec === null) return NOT_SUBSCRIBER;
  const base = `${rec.status}/${rec.paymentType}`;
  if (rec.activatedAtMs === undefined) return base;
  const tenure = `${base}/${encodeInstant(rec.activatedAtMs)}`;
  const { deviceFirstSeenAtMs: first, deviceChangedAtMs: changed, callForwarding } = rec;
  if (first === undefined || changed === undefined || callForwarding === undefined) return tenure;
  const full = `${tenure}/${encodeInstant(first)}/${encodeInstant(changed)}/${encodeForwarding(callForwarding)}`;
  const locks = `${encodeFlag(rec.contentLock)}${encodeFlag(rec.parentalControl)}`;
  return locks === 'nn' ? full : `${full}/${locks}`;
}

export function decodeHlr(value: string): HlrRecord | null | undefined {
  if (value === NOT_SUBSCRIBER) return null;
  const parts = value.split('/');
  const [status, paymentType, activated, first, changed, forwarding, lockText] = parts;
  if (![2, 3, 6, 7].includes(parts.length) || !STATUSES.has(status) || !PAYMENT_TYPES.has(paymentType)) return undefined;
  const rec: HlrRecord = { status: status as SubscriberStatus, paymentType: paymentType as PaymentType };
  if (activated === undefined) return rec;
  const activatedAtMs = decodeInstant(activated);
  if (activatedAtMs === undefined) return undefined;
  rec.activatedAtMs = activatedAtMs;
  if (first === undefined) return rec;
  const deviceFirstSeenAtMs = decodeInstant(first);
  const deviceChangedAtMs = decodeInstant(changed);
  const callForwarding = decodeForwarding(forwarding);
  if (deviceFirstSeenAtMs === undefined || deviceChangedAtMs === undefined || callForwarding === undefined) return undefined;
  const locks = lockText === undefined ? {} : decodeLocks(lockText);
  if (locks === undefined) return undefined;
  return { ...rec, deviceFirstSeenAtMs, deviceChangedAtMs, callForwarding, ...locks };
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
