import { OutOfRangeError } from '../camara/camara-errors';
import { CamaraCallDeps, CamaraCaller, camaraCaller, requireScope } from '../camara/camara-call';
import { Clock } from '../kernel/clock';
import { ZonedCalendar } from '../kernel/zoned-date';
import { AccessGrant } from '../oauth/ports/access-tokens';
import { camaraApi } from '../partners/camara-apis';
import { Operation } from '../partners/operation';
import { SCOPES } from '../oauth/access-scopes';
import { HlrRecord } from '../verification/ports/upstreams';
import { subscriberOf } from '../verification/subscriber-facts';
import { SubscriberStartUnknownError } from './number-recycling-errors';
import { parseRecyclingCheckBody } from './number-recycling-input';

/** The registry word the check spends (permission, rate limit, metrics label, audit). */
export const NUMBER_RECYCLING_OPERATION: Operation = camaraApi('number-recycling').registryOperation;

export interface RecyclingCheck {
  msisdn: string;
  phoneNumberRecycled: boolean;
}

export interface NumberRecyclingServiceDeps {
  /** Subject, admission and audit: the shared CAMARA kit. */
  call: CamaraCallDeps;
  /** The HLR's facts with activatedAt, from the verification core's cache (CONTRACT §7, §11). */
  hlrFacts(msisdn: string): Promise<HlrRecord | null>;
  clock: Clock;
  /** TIMEZONE's calendar: where specifiedDate starts, and which day is today. */
  calendar: ZonedCalendar;
}

/**
 * Whether the number's current subscriber began after the start of `specifiedDate`: the number
 * was then someone else's (or no one's). Began on or before it: not recycled since.
 */
export function recycledSince(rec: HlrRecord | null, startOfDayMs: number): boolean {
  const began = subscriberOf(rec).activatedAtMs;
  if (began === null || began === undefined) {
    throw new SubscriberStartUnknownError('when the current subscriber of this phone number began is not known');
  }
  return began > startOfDayMs;
}

/** CAMARA Number Recycling 0.2.0 (CONTRACT §11) over the verification core's HLR facts. */
export class NumberRecyclingService {
  private readonly call: CamaraCaller<'check'>;

  constructor(private readonly deps: NumberRecyclingServiceDeps) {
    this.call = camaraCaller(deps.call, 'number-recycling');
  }

  async check(grant: AccessGrant, body: unknown, correlator: string): Promise<RecyclingCheck> {
    requireScope(grant, [SCOPES.numberRecyclingCheck]);
    const { specifiedDate, phoneNumber } = parseRecyclingCheckBody(body);
    const { calendar, clock } = this.deps;
    if (specifiedDate > calendar.dateAt(clock.nowMs())) throw new OutOfRangeError('specifiedDate must not be in the future');
    return this.call({ grant, phoneNumber, operation: 'check', correlator }, async (msisdn) => ({
      msisdn,
      phoneNumberRecycled: recycledSince(await this.deps.hlrFacts(msisdn), calendar.startOfDayMs(specifiedDate)),
    }));
  }
}
