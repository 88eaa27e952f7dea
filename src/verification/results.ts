import { PaymentType } from './ports/upstreams';

/** What the KYC operation establishes about a number; msisdn is the input as sent. */
export interface KycResult {
  msisdn: string;
  isPrepaid: boolean;
  isActive: boolean;
  isValid: boolean;
  /** Start of the line's continuous tenure; null when unknown or the number is not valid (GraphQL; REST does not show it). */
  tenureSinceMs?: number | null;
  /** The valid line's payment type (GraphQL's contractType); absent when not valid. */
  paymentType?: PaymentType;
}

export interface SimSwapResult {
  msisdn: string;
  simSwapped: boolean;
  /** The latest swap's instant, present only when simSwapped is true. */
  simSwappedAtMs?: number;
  /** The latest swap, else the current SIM's activation (CAMARA's latestSimChange); null when unknown (GraphQL only). */
  latestSimChangeMs?: number | null;
}

export type VerificationResult =
  | { operation: 'kyc'; kyc: KycResult }
  | { operation: 'sim_swap'; simSwap: SimSwapResult };

export interface Answer {
  result: VerificationResult;
  /** True when this is the stored answer of an earlier request with the same txn_id. */
  replayed: boolean;
}
