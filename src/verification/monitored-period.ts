import { OutOfRangeError } from '../errors/domain-errors';

/*
 * Monitored periods (SIM_SWAP_MONITORED_DAYS, DEVICE_SWAP_MONITORED_DAYS): how much of a line's
 * change history the operator may reveal to a partner (local regulation). One rule for the
 * CAMARA APIs and for a partner on GraphQL (CONTRACT §2), so neither shows more than the other.
 * `days` undefined: unlimited (the setting unset, or the operator's own internal app).
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** CAMARA SIM Swap's words for a look-back over the period, also GraphQL's for a partner. */
export function simSwapLookBackTooLong(days: number): string {
  return `Check monitor period could not exceed local regulations (${days} days)`;
}

/** A change as the caller may see it: one older than the period is null, with the period in days. */
export interface MonitoredChange {
  latestMs: number | null;
  /** Present exactly when latestMs is null because the change is older than the period. */
  monitoredPeriodDays?: number;
}

export function monitoredChange(latestMs: number | null, days: number | undefined, nowMs: number): MonitoredChange {
  if (latestMs !== null && days !== undefined && nowMs - latestMs > days * DAY_MS) return { latestMs: null, monitoredPeriodDays: days };
  return { latestMs };
}

/**
 * The look-back a caller bound by the period may use, in hours: one asked above the period is
 * OutOfRangeError(tooLong); none asked is the default shortened to the period when that is
 * shorter, else undefined (the caller's own default applies).
 */
export function boundedLookBackHours(maxAgeHours: number | undefined, days: number | undefined, defaultHours: number,
  tooLong: (days: number) => string): number | undefined {
  if (days === undefined) return maxAgeHours;
  const monitoredHours = days * 24;
  if (maxAgeHours !== undefined) {
    if (maxAgeHours > monitoredHours) throw new OutOfRangeError(tooLong(days));
    return maxAgeHours;
  }
  return defaultHours > monitoredHours ? monitoredHours : undefined;
}

/** Whether a change at latestMs lies within the look-back of maxAgeHours. */
export function withinHours(latestMs: number, maxAgeHours: number, nowMs: number): boolean {
  return nowMs - latestMs <= maxAgeHours * HOUR_MS;
}
