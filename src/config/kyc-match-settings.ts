import { ServerSettings } from './server-settings';
import { SettingsOf, SettingsRule, bool, int, issue, optionalString } from './setting-types';
import { StateSettings, usesRedis } from './state-settings';

/** CAMARA KYC Match (CONTRACT §11); where customer records are is an upstream setting (CRM_URL). */
export const kycMatchSettings = {
  /**
   * `<attr>MatchScore` beside a scored "false". Off by default: a score is an oracle that
   * narrows a name in about five requests (CONTRACT §11 amended; docs/kyc-match.md).
   */
  KYC_MATCH_SCORES: bool(false),
  /** idDocument must be sent and match before anything else is compared (403 otherwise). */
  KYC_MATCH_ID_DOCUMENT_REQUIRED: bool(false),
  /** Requests per partner per number per UTC day, fleet-wide, against guessing; more get 429. */
  KYC_MATCH_MAX_PER_NUMBER_PER_DAY: int(1, 1_000_000, 10),
  /**
   * 32-byte key (base64 or 64 hex digits) under which the allowance's counter keys are HMACs of
   * the number, the same on every instance. Unset: a key generated at start (memory state); with
   * Redis, required in production, else a public development key (kyc-match/allowance-key.ts).
   */
  KYC_MATCH_KEY_FILE: optionalString,
};

export type KycMatchSettings = SettingsOf<typeof kycMatchSettings>;

type SharedStateInputs = Pick<ServerSettings, 'NODE_ENV'> & Pick<StateSettings, 'REDIS_URL' | 'REDIS_CLUSTER_NODES'>;

export const productionKycMatchKeyRule: SettingsRule<KycMatchSettings & SharedStateInputs> = (c, ctx) => {
  // A generated key is this process's only: on a shared Redis each instance would count apart.
  if (c.NODE_ENV === 'production' && usesRedis(c) && !c.KYC_MATCH_KEY_FILE) {
    issue(ctx, 'KYC_MATCH_KEY_FILE', 'is required in production with Redis');
  }
};
