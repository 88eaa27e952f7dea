import { SettingsOf, bool, int } from './setting-types';

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
};

export type KycMatchSettings = SettingsOf<typeof kycMatchSettings>;
