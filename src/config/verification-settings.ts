import { z } from 'zod';
import { createOffsetDateTimeFormatter } from '../kernel/offset-date-time';
import { SettingsOf, SettingsRule, int, issue, optionalInt } from './setting-types';
import { StateSettings } from './state-settings';
import { UpstreamSettings } from './upstream-settings';

/** The verifications: numbering plan, time zone, caches, txn_id records, SIM-management's events. */
export const verificationSettings = {
  /** Numbering plan for msisdn normalisation. */
  COUNTRY_CODE: z.string().regex(/^[1-9]\d{0,2}$/, 'must be 1-3 digits, not starting with 0').default('255'),
  NSN_LENGTH: int(4, 14, 9),
  /** IANA zone sim_swapped_dt is rendered in. */
  TIMEZONE: z.string().default('UTC').refine((tz) => {
    try { createOffsetDateTimeFormatter(tz); return true; } catch { return false; }
  }, 'must be an IANA time zone such as UTC or Africa/Dar_es_Salaam'),
  TXN_TTL_S: int(60, 30 * 86400, 86400),
  /** How long a txn_id claim holds while its request runs; longer than the request's worst case (see the cross-field rule). */
  TXN_IN_FLIGHT_TTL_S: int(1, 3600, 60),
  SIM_SWAP_MAX_AGE_HOURS: int(1, 2400, 240),
  /** CAMARA: days of SIM-change history the operator may reveal (local regulation); unset = unlimited. */
  SIM_SWAP_MONITORED_DAYS: optionalInt(1, 36_500),
  KYC_CACHE_TTL_S: int(0, 86400, 300),
  KYC_STALE_S: int(0, 7 * 86400, 3600),
  SIM_SWAP_CACHE_TTL_S: int(0, 3600, 30),
  NEGATIVE_CACHE_TTL_S: int(0, 86400, 60),
  /** Bearer token for POST /internal/events/sim-swap; unset = route answers 404. */
  EVENTS_TOKEN: z.string().min(16, 'must be at least 16 characters')
    .regex(/^[A-Za-z0-9._~+/-]+=*$/, 'must be a bearer token68 (A-Z a-z 0-9 . _ ~ + / - then optional =)').optional(),
};

export type VerificationSettings = SettingsOf<typeof verificationSettings>;

/** Slack for event-loop delay and clock steps on top of the deadlines a txn_id claim must outlive. */
const CLAIM_SLACK_MS = 1000;

/**
 * The longest a txn_id claim must hold. A txn_id request makes one upstream call, never both
 * (KYC asks the HLR, SIM swap SIM management) and never a retry (HttpUpstream does not retry),
 * bounded by that upstream's deadline; a request joining another's lookup waits for a call that
 * started earlier, so no longer. After the call come the cache write and the answer's record,
 * each bounded by the Redis command timeout. A claim that lapsed before the record is written
 * would let a retry call the upstream a second time.
 */
export function txnClaimNeedsMs(c: { HLR_TIMEOUT_MS: number; SIM_TIMEOUT_MS: number; REDIS_COMMAND_TIMEOUT_MS: number }): number {
  return Math.max(c.HLR_TIMEOUT_MS, c.SIM_TIMEOUT_MS) + 2 * c.REDIS_COMMAND_TIMEOUT_MS + CLAIM_SLACK_MS;
}

type ClaimInputs = Pick<UpstreamSettings, 'HLR_TIMEOUT_MS' | 'SIM_TIMEOUT_MS'> & Pick<StateSettings, 'REDIS_COMMAND_TIMEOUT_MS'>;

export const txnClaimRule: SettingsRule<VerificationSettings & ClaimInputs> = (c, ctx) => {
  const claimNeedsMs = txnClaimNeedsMs(c);
  if (c.TXN_IN_FLIGHT_TTL_S * 1000 < claimNeedsMs) {
    issue(ctx, 'TXN_IN_FLIGHT_TTL_S', `must outlast a request's upstream call and state writes: at least ${Math.ceil(claimNeedsMs / 1000)} s `
      + '(max(HLR_TIMEOUT_MS, SIM_TIMEOUT_MS) + 2 × REDIS_COMMAND_TIMEOUT_MS + 1000 ms)');
  }
};

export const cacheRule: SettingsRule<VerificationSettings> = (c, ctx) => {
  if (c.KYC_STALE_S < c.KYC_CACHE_TTL_S) issue(ctx, 'KYC_STALE_S', 'must be at least KYC_CACHE_TTL_S');
};
