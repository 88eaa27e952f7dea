import { CALL_FORWARDING_SERVICES, CallForwardingService, MSISDN_PATTERN, SimSubscriber, SubscriberStatus, toRfc3339Seconds } from './subscriber';
import { syntheticIdentity } from './synthetic-identity';

/**
 * Synthetic mode answers for numbers absent from the fixture, so load tests can spread over
 * millions of numbers without a fixture of millions. Everything is derived from the number
 * and the simulator's start time: the same number always gets the same answer in a run,
 * and nothing is stored, so memory stays flat however many numbers a benchmark touches.
 *
 * Shares: 5% not a subscriber; of the rest 88% active and 4% each inactive, suspended,
 * terminated; 70% prepaid; 20% swapped 1..2000 hours before the start time; the line activated
 * 90..3649 days before the start time (always before any swap); the current SIM activated at
 * the latest swap, else with the line.
 *
 * CONTRACT §11 facts: 2% never used in a device (both device dates null); the others first seen
 * 0..6 days after the line's activation, and 30% of them changed device 1..2000 hours before the
 * start time (always after the first use); call forwarding none for 85%, unconditional for 5%,
 * a non-empty set of the conditional services for 10%; 90% have an identity record
 * (synthetic-identity.ts), the rest none (CRM 404). These take draws of their own, so the
 * attributes above are what they were before these facts existed.
 */
export const SYNTHETIC_RATES = {
  notSubscriber: 0.05,
  inactive: 0.04,
  suspended: 0.04,
  terminated: 0.04,
  prepaid: 0.7,
  swapped: 0.2,
  maxSwapAgeHours: 2000,
  minTenureDays: 90,
  maxTenureDays: 3649,
  neverInDevice: 0.02,
  maxFirstSeenAfterActivationDays: 6,
  deviceChanged: 0.3,
  maxDeviceChangeAgeHours: 2000,
  forwardingUnconditional: 0.05,
  forwardingConditional: 0.1,
  identity: 0.9,
} as const;

const TWO_POW_32 = 2 ** 32;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** 32-bit FNV-1a: cheap, and enough to spread numbers; not for anything security-related. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Numbers that differ only in the last digit give FNV values that differ in few bits, so each
 * attribute takes its own finalised draw (murmur3 fmix) to keep the attributes independent.
 */
function draw(hash: number, k: number): number {
  let x = (hash + Math.imul(k + 1, 0x9e3779b9)) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * Deterministic subscriber for `msisdn`, or null for "not a subscriber" (and for malformed numbers).
 * The identity record is built only with `withIdentity` (the CRM route): it costs twice what the
 * rest does, and HLR and SIM calls, the bulk of a benchmark, never show it.
 */
export function syntheticSubscriber(msisdn: string, startedAt: Date, withIdentity = false): SimSubscriber | null {
  if (!MSISDN_PATTERN.test(msisdn)) return null;
  const h = fnv1a(msisdn);
  const r = SYNTHETIC_RATES;
  if (draw(h, 0) / TWO_POW_32 < r.notSubscriber) return null;

  const u = draw(h, 1) / TWO_POW_32;
  const status: SubscriberStatus =
    u < r.inactive ? 'inactive'
      : u < r.inactive + r.suspended ? 'suspended'
        : u < r.inactive + r.suspended + r.terminated ? 'terminated'
          : 'active';
  const paymentType = draw(h, 2) / TWO_POW_32 < r.prepaid ? 'prepaid' : 'postpaid';
  const iccid = `89255${pad7(draw(h, 3))}${pad7(draw(h, 4))}`;
  const swapped = draw(h, 5) / TWO_POW_32 < r.swapped;
  const hoursAgo = 1 + (draw(h, 6) % r.maxSwapAgeHours);
  const lastSimSwapAt = swapped ? toRfc3339Seconds(startedAt.getTime() - hoursAgo * HOUR_MS) : null;
  const tenureDays = r.minTenureDays + (draw(h, 7) % (r.maxTenureDays - r.minTenureDays + 1));
  const activatedMs = startedAt.getTime() - tenureDays * DAY_MS;
  const activatedAt = toRfc3339Seconds(activatedMs);
  const identity = withIdentity && draw(h, 12) / TWO_POW_32 < r.identity ? syntheticIdentity((k) => draw(h, k)) : undefined;
  return {
    msisdn, status, paymentType, iccid, lastSimSwapAt, activatedAt, simActivatedAt: lastSimSwapAt ?? activatedAt,
    ...syntheticDevice(h, activatedMs, startedAt),
    callForwarding: syntheticForwarding(h),
    ...(identity ? { identity } : {}),
  };
}

/**
 * Minimum tenure 90 d less 6 d of first use leaves 2016 h: a change up to 2000 h ago is always
 * after the first use.
 */
function syntheticDevice(h: number, activatedMs: number, startedAt: Date): Pick<SimSubscriber, 'deviceFirstSeenAt' | 'deviceChangedAt'> {
  const r = SYNTHETIC_RATES;
  if (draw(h, 8) / TWO_POW_32 < r.neverInDevice) return { deviceFirstSeenAt: null, deviceChangedAt: null };
  const firstSeenMs = activatedMs + (draw(h, 9) % (r.maxFirstSeenAfterActivationDays + 1)) * DAY_MS;
  const changed = draw(h, 10) / TWO_POW_32 < r.deviceChanged;
  const hoursAgo = 1 + (draw(h, 11) % r.maxDeviceChangeAgeHours);
  return {
    deviceFirstSeenAt: toRfc3339Seconds(firstSeenMs),
    deviceChangedAt: changed ? toRfc3339Seconds(startedAt.getTime() - hoursAgo * HOUR_MS) : null,
  };
}

function syntheticForwarding(h: number): CallForwardingService[] {
  const r = SYNTHETIC_RATES;
  const u = draw(h, 13) / TWO_POW_32;
  if (u < r.forwardingUnconditional) return ['unconditional'];
  if (u >= r.forwardingUnconditional + r.forwardingConditional) return [];
  // A value 1..7: its three bits pick a non-empty subset of the three conditional services.
  const bits = 1 + (draw(h, 14) % 7);
  return CALL_FORWARDING_SERVICES.slice(1).filter((_, i) => (bits >> i) & 1);
}

function pad7(n: number): string {
  return String(n % 10_000_000).padStart(7, '0');
}
