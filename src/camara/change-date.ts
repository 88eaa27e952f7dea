import { MAX_AGE_DEFAULT_HOURS } from './camara-input';
import { Clock } from '../kernel/clock';
import { MonitoredChange, boundedLookBackHours, monitoredChange, withinHours } from '../verification/monitored-period';

/*
 * SIM Swap and Device Swap ask the same two questions of one date, the line's latest change:
 * retrieve-date (when, as far as the monitored period lets the caller see) and check (within
 * maxAge hours?). The rules are one here; each API says only where its date comes from, what it
 * does when there is none, and how its yaml words a maxAge beyond the monitored period.
 */

export interface ChangeDateRules {
  clock: Clock;
  /** The API's monitored period (SIM_SWAP_MONITORED_DAYS, DEVICE_SWAP_MONITORED_DAYS); undefined = unlimited history. */
  monitoredDays?: number;
  /** The API's words for a maxAge above the monitored period (400 OUT_OF_RANGE). */
  tooLong: (days: number) => string;
  /**
   * The line's latest change (ms). Null is "no change to tell" and never within a look-back;
   * an API for which there must be one throws its own error instead.
   */
  latest: (msisdn: string) => Promise<number | null>;
}

export class ChangeDate {
  constructor(private readonly rules: ChangeDateRules) {}

  /** retrieve-date: the latest change as the caller may see it; older than the monitored period, null with the period. */
  async seen(msisdn: string): Promise<MonitoredChange> {
    const { rules } = this;
    return monitoredChange(await rules.latest(msisdn), rules.monitoredDays, rules.clock.nowMs());
  }

  /**
   * check's look-back in hours, from the body alone (so before the call is admitted): maxAge,
   * else the spec's 240 h shortened to the monitored period when that is shorter.
   */
  lookBackHours(maxAge: number | undefined): number {
    return boundedLookBackHours(maxAge, this.rules.monitoredDays, MAX_AGE_DEFAULT_HOURS, this.rules.tooLong) ?? MAX_AGE_DEFAULT_HOURS;
  }

  /** check: whether the latest change lies within the look-back. */
  async changedWithin(msisdn: string, hours: number): Promise<boolean> {
    const latest = await this.rules.latest(msisdn);
    return latest !== null && withinHours(latest, hours, this.rules.clock.nowMs());
  }
}

/**
 * retrieve-date's 200 body: the latest change under the API's own field name (`latestSimChange`,
 * `latestDeviceChange`), formatted in the operator's zone, or null; `monitoredPeriod` when null
 * because the change is older than the period.
 */
export function changeDateBody(field: string, seen: { latestMs: number | null; monitoredPeriodDays?: number }, formatDate: (date: Date) => string): Record<string, unknown> {
  const body: Record<string, unknown> = { [field]: seen.latestMs === null ? null : formatDate(new Date(seen.latestMs)) };
  if (seen.monitoredPeriodDays !== undefined) body.monitoredPeriod = seen.monitoredPeriodDays;
  return body;
}
