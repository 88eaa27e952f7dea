import { IdentityRecord, parseIdentity } from './identity';
import { isPlainObject } from '../kernel/plain-object';
import { instantOf, parseRfc3339 } from '../kernel/rfc3339';

/** One subscriber as the simulated HLR, SIM-management and customer-records systems know it. */
export interface SimSubscriber {
  /** Normalised international form, digits only (e.g. 255712000001). */
  msisdn: string;
  status: SubscriberStatus;
  paymentType: PaymentType;
  iccid: string;
  /** RFC 3339, or null when the line was never swapped (first activation is not a swap). */
  lastSimSwapAt: string | null;
  /** HLR: start of the line's continuous tenure, RFC 3339, or null (unknown). */
  activatedAt: string | null;
  /** SIM management: when the current SIM was activated, RFC 3339, or null (unknown). */
  simActivatedAt: string | null;
  /** HLR: first time the number was used in a device, RFC 3339; null = never; absent = unknown. */
  deviceFirstSeenAt?: string | null;
  /** HLR: latest change of device (IMEI), RFC 3339; null = never changed; absent = unknown. */
  deviceChangedAt?: string | null;
  /** HLR: the active call-forwarding services; empty = none; absent = unknown. */
  callForwarding?: CallForwardingService[];
  /** HLR: some content lock is on; absent = unknown (KYC Age Verification's contentLock). */
  contentLock?: boolean;
  /** HLR: some parental control is on; absent = unknown. */
  parentalControl?: boolean;
  /** Customer records: the verified identity; absent = no record (CRM answers 404). */
  identity?: IdentityRecord;
}

/** What a fixture or an upsert may give: the tenure fields are optional (derived or unknown when absent). */
export type SubscriberInput = Omit<SimSubscriber, 'activatedAt' | 'simActivatedAt'> & Partial<Pick<SimSubscriber, 'activatedAt' | 'simActivatedAt'>>;

export const SUBSCRIBER_STATUSES = ['active', 'inactive', 'suspended', 'terminated'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

export const PAYMENT_TYPES = ['prepaid', 'postpaid', 'business'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

/** In this order in every answer, so a list compares equal however a fixture wrote it. */
export const CALL_FORWARDING_SERVICES = ['unconditional', 'conditional_busy', 'conditional_not_reachable', 'conditional_no_answer'] as const;
export type CallForwardingService = (typeof CALL_FORWARDING_SERVICES)[number];

/** E.164 without the `+`: the upstreams only ever see the normalised form, so anything else is a test bug. */
export const MSISDN_PATTERN = /^[1-9][0-9]{5,14}$/;
const ICCID_PATTERN = /^[0-9]{18,22}$/;
const RELATIVE = /^now-(\d{1,7})([mhd])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const FIELDS = new Set(['msisdn', 'status', 'paymentType', 'iccid', 'lastSimSwapAt', 'activatedAt', 'simActivatedAt',
  'deviceFirstSeenAt', 'deviceChangedAt', 'callForwarding', 'contentLock', 'parentalControl', 'identity']);

export interface ParseOptions {
  /** Reference time for the relative `now-<N><unit>` form; without it only RFC 3339 is accepted. */
  now?: Date;
  /** Prefix for error messages, e.g. `subscribers[3]`. */
  where?: string;
}

/**
 * Validates one raw record and returns a clean copy. Unknown fields are rejected so a typo
 * in a fixture (`lastSwapAt`) fails loudly instead of silently meaning "never swapped".
 */
export function parseSubscriber(raw: unknown, opts: ParseOptions = {}): SimSubscriber {
  const where = opts.where ?? 'subscriber';
  if (!isPlainObject(raw)) {
    throw new Error(`${where} must be a JSON object`);
  }
  const r = raw;
  for (const key of Object.keys(r)) {
    if (!FIELDS.has(key)) throw new Error(`${where}.${key} is not a known field`);
  }
  const msisdn = r.msisdn;
  if (typeof msisdn !== 'string' || !MSISDN_PATTERN.test(msisdn)) {
    throw new Error(`${where}.msisdn must be 6-15 digits in international form without "+" (got ${show(msisdn)})`);
  }
  const status = r.status;
  if (!isOneOf(SUBSCRIBER_STATUSES, status)) {
    throw new Error(`${where}.status must be one of ${SUBSCRIBER_STATUSES.join(', ')} (got ${show(status)})`);
  }
  const paymentType = r.paymentType;
  if (!isOneOf(PAYMENT_TYPES, paymentType)) {
    throw new Error(`${where}.paymentType must be one of ${PAYMENT_TYPES.join(', ')} (got ${show(paymentType)})`);
  }
  const iccid = r.iccid;
  if (typeof iccid !== 'string' || !ICCID_PATTERN.test(iccid)) {
    throw new Error(`${where}.iccid must be 18-22 digits (got ${show(iccid)})`);
  }
  const lastSimSwapAt = parseTime(r.lastSimSwapAt, `${where}.lastSimSwapAt`, opts.now);
  const activatedAt = parseTime(r.activatedAt, `${where}.activatedAt`, opts.now);
  // The current SIM was activated by the latest swap, else when the line was (CONTRACT §7).
  const simActivatedAt = r.simActivatedAt === undefined
    ? lastSimSwapAt ?? activatedAt
    : parseTime(r.simActivatedAt, `${where}.simActivatedAt`, opts.now);
  const device = parseDevice(r, where, opts.now);
  const callForwarding = r.callForwarding === undefined ? undefined : parseCallForwarding(r.callForwarding, `${where}.callForwarding`);
  const identity = r.identity === undefined || r.identity === null ? undefined : parseIdentity(r.identity, `${where}.identity`);
  const flags: Pick<SimSubscriber, 'contentLock' | 'parentalControl'> = {};
  for (const name of ['contentLock', 'parentalControl'] as const) {
    const value = r[name];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') throw new Error(`${where}.${name} must be a boolean (got ${show(value)})`);
    flags[name] = value;
  }
  // Optional facts stay absent (not null) when unknown: the HLR then leaves them out of its body.
  return {
    msisdn, status, paymentType, iccid, lastSimSwapAt, activatedAt, simActivatedAt, ...device,
    ...(callForwarding === undefined ? {} : { callForwarding }),
    ...flags,
    ...(identity === undefined ? {} : { identity }),
  };
}

/** deviceFirstSeenAt and deviceChangedAt, each kept absent when absent; a change before the first use is refused. */
function parseDevice(r: Record<string, unknown>, where: string, now: Date | undefined): Pick<SimSubscriber, 'deviceFirstSeenAt' | 'deviceChangedAt'> {
  const out: Pick<SimSubscriber, 'deviceFirstSeenAt' | 'deviceChangedAt'> = {};
  if (r.deviceFirstSeenAt !== undefined) out.deviceFirstSeenAt = parseTime(r.deviceFirstSeenAt, `${where}.deviceFirstSeenAt`, now);
  if (r.deviceChangedAt !== undefined) out.deviceChangedAt = parseTime(r.deviceChangedAt, `${where}.deviceChangedAt`, now);
  const first = out.deviceFirstSeenAt;
  const changed = out.deviceChangedAt;
  if (typeof changed === 'string' && first === null) {
    throw new Error(`${where}.deviceChangedAt is set but deviceFirstSeenAt is null (never used in a device)`);
  }
  if (typeof changed === 'string' && typeof first === 'string' && instantOf(changed) < instantOf(first)) {
    throw new Error(`${where}.deviceChangedAt is before deviceFirstSeenAt`);
  }
  return out;
}

/** A list of distinct known services, returned in CALL_FORWARDING_SERVICES order. */
function parseCallForwarding(value: unknown, where: string): CallForwardingService[] {
  const allowed = CALL_FORWARDING_SERVICES.join(', ');
  if (!Array.isArray(value)) throw new Error(`${where} must be a list of ${allowed} (empty: none active)`);
  for (const v of value) {
    if (!isOneOf(CALL_FORWARDING_SERVICES, v)) throw new Error(`${where} may hold only ${allowed} (got ${show(v)})`);
  }
  if (new Set(value).size !== value.length) throw new Error(`${where} names a service twice`);
  return CALL_FORWARDING_SERVICES.filter((c) => value.includes(c));
}

/** RFC 3339 (kept as written), null/absent, or `now-<N><m|h|d>` resolved against `now`. */
function parseTime(value: unknown, where: string, now: Date | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    // The service's own parser: a time the service would refuse (second 60, 30 February) is refused here too.
    if (parseRfc3339(value) !== undefined) return value;
    const rel = RELATIVE.exec(value);
    if (rel && now) return toRfc3339Seconds(now.getTime() - Number(rel[1]) * UNIT_MS[rel[2] as keyof typeof UNIT_MS]);
  }
  const forms = now ? 'an RFC 3339 date-time, "now-<N><m|h|d>" or null' : 'an RFC 3339 date-time or null';
  throw new Error(`${where} must be ${forms} (got ${show(value)})`);
}

/** UTC, whole seconds: the service renders seconds only, so milliseconds would just be noise. */
export function toRfc3339Seconds(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

function isOneOf<T extends string>(allowed: readonly T[], v: unknown): v is T {
  return typeof v === 'string' && (allowed as readonly string[]).includes(v);
}

function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  const s = JSON.stringify(v) ?? typeof v;
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
