/** What the KYC operation establishes about a number; msisdn is the input as sent. */
export interface KycResult {
  msisdn: string;
  isPrepaid: boolean;
  isActive: boolean;
  isValid: boolean;
}

export interface SimSwapResult {
  msisdn: string;
  simSwapped: boolean;
  /** The latest swap's instant, present only when simSwapped is true. */
  simSwappedAtMs?: number;
}

export type VerificationResult =
  | { operation: 'kyc'; kyc: KycResult }
  | { operation: 'sim_swap'; simSwap: SimSwapResult };

export interface Answer {
  result: VerificationResult;
  /** True when this is the stored answer of an earlier request with the same txn_id. */
  replayed: boolean;
}
