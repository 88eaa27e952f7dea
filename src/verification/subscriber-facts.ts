import { CallForwardingUnknownError, NotSubscriberError } from '../errors/domain-errors';
import { CallForwardingService, HlrRecord, PaymentType, SimRecord } from './ports/upstreams';

/*
 * Who is a subscriber (and its KYC validity, latest SIM and device change, active call forwardings, contract type), decided once (CONTRACT §3, §7): every interface and API asks here, so a
 * terminated line cannot be "not a subscriber" to one API and answered by another (GraphQL
 * signals used to give the terminated 004 a SIM change date that every CAMARA API refused).
 */

/** How CAMARA words "not a subscriber"; an API's yaml may word it its own way. */
export const NOT_SUBSCRIBER_REASON = 'the phone number is not associated with a subscriber';

/** A line is a subscriber when the HLR knows it and it is not terminated. */
export function isSubscriber(rec: HlrRecord | null): rec is HlrRecord {
  return rec !== null && rec.status !== 'terminated';
}

/** The HLR's record of a subscriber, else NotSubscriberError (404) with `reason`. */
export function subscriberOf(rec: HlrRecord | null, reason = NOT_SUBSCRIBER_REASON): HlrRecord {
  if (!isSubscriber(rec)) throw new NotSubscriberError(reason);
  return rec;
}

/** KYC's flags (CONTRACT §3): valid = a subscriber; active and prepaid only ever for one. */
export function kycFlags(rec: HlrRecord | null): { isValid: boolean; isActive: boolean; isPrepaid: boolean } {
  if (!isSubscriber(rec)) return { isValid: false, isActive: false, isPrepaid: false };
  return { isValid: true, isActive: rec.status === 'active', isPrepaid: rec.paymentType === 'prepaid' };
}

/**
 * The latest SIM change of a subscriber: the latest swap, else the current SIM's activation;
 * null when unknown. Both systems must know the line: the HLR as a subscriber, SIM management
 * as having a SIM; otherwise NotSubscriberError (CAMARA SIM Swap's 404).
 */
export function latestSimChangeOf(hlr: HlrRecord | null, sim: SimRecord | null, reason = NOT_SUBSCRIBER_REASON): number | null {
  subscriberOf(hlr, reason);
  if (sim === null) throw new NotSubscriberError(reason);
  return sim.lastSimSwapAtMs ?? sim.simActivatedAtMs ?? null;
}

/**
 * The latest device change of a subscriber: the latest change of device, else the first use of
 * the number in one (device-swap.yaml: a swap is the association created or changed); null when
 * never in a device or unknown. CAMARA Device Swap and the GraphQL deviceSwap signal read it here.
 */
export function latestDeviceChangeOf(rec: HlrRecord): number | null {
  return rec.deviceChangedAtMs ?? rec.deviceFirstSeenAtMs ?? null;
}

/**
 * A subscriber's active forwarding services (empty: none); unknown is 404
 * (CallForwardingUnknownError). CAMARA Call Forwarding Signal and the GraphQL callForwarding
 * signal read it here.
 */
export function activeForwardings(rec: HlrRecord | null): readonly CallForwardingService[] {
  const { callForwarding } = subscriberOf(rec);
  if (callForwarding === null || callForwarding === undefined) {
    throw new CallForwardingUnknownError('the call forwarding status of this phone number could not be retrieved');
  }
  return callForwarding;
}

/** The contract type CAMARA names (KYC Tenure's contractType; GraphQL's enum spells the same values). */
export type ContractType = 'PAYG' | 'PAYM' | 'Business';

/** A subscriber's contract type from the HLR's payment type, for KYC Tenure and GraphQL alike. */
export function contractTypeOf(paymentType: PaymentType): ContractType {
  switch (paymentType) {
    case 'prepaid': return 'PAYG';
    case 'postpaid': return 'PAYM';
    case 'business': return 'Business';
    default: {
      const never: never = paymentType;
      throw new Error(`unknown payment type ${String(never)}`);
    }
  }
}
