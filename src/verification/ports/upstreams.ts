export type SubscriberStatus = 'active' | 'inactive' | 'suspended' | 'terminated';
export type PaymentType = 'prepaid' | 'postpaid' | 'business';

export interface HlrRecord {
  status: SubscriberStatus;
  paymentType: PaymentType;
  /**
   * Start of the line's continuous tenure (ms since the epoch); null when the HLR does not say.
   * Undefined only for a cache entry written before the field existed: the facts are incomplete.
   */
  activatedAtMs?: number | null;
  /**
   * First use of the number in a device (ms); null when never used in one or the HLR does not say.
   * Undefined, like the device and forwarding fields below, only for a cache entry written before they existed.
   */
  deviceFirstSeenAtMs?: number | null;
  /** Latest change of device (IMEI) (ms); null when never changed or the HLR does not say. */
  deviceChangedAtMs?: number | null;
  /** The active call-forwarding services (empty: none); null when the HLR does not say (unknown). */
  callForwarding?: readonly CallForwardingService[] | null;
  /** Some content lock (web content blocked) is on; absent when the HLR does not say (KYC Age Verification). */
  contentLock?: boolean;
  /** Some parental control is on; absent when the HLR does not say. */
  parentalControl?: boolean;
}

/** The forwarding services an HLR reports (CONTRACT §11), in this order. */
export const CALL_FORWARDING_SERVICES = ['unconditional', 'conditional_busy', 'conditional_not_reachable', 'conditional_no_answer'] as const;
export type CallForwardingService = (typeof CALL_FORWARDING_SERVICES)[number];

export interface SimRecord {
  /** Milliseconds since the epoch of the latest SIM swap; null when the SIM was never swapped. */
  lastSimSwapAtMs: number | null;
  /**
   * When the current SIM was activated (ms since the epoch); null when SIM management does not say.
   * Undefined only for a cache entry written before the field existed: the facts are incomplete.
   */
  simActivatedAtMs?: number | null;
}

/**
 * An upstream lookup answers the record, or null when the number is not a subscriber.
 * Any unavailability (down, 5xx, timeout, open circuit, unreadable answer) rejects with
 * UpstreamUnavailableError.
 */
export interface HlrClient {
  /** Looks a normalised msisdn up in the HLR. */
  lookup(msisdn: string): Promise<HlrRecord | null>;
}

export interface SimClient {
  /** Looks a normalised msisdn's SIM up in SIM management. */
  lookup(msisdn: string): Promise<SimRecord | null>;
}

export type UpstreamName = 'hlr' | 'sim' | 'crm';
