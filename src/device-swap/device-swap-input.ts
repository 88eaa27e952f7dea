import { optionalIntegerInRange, optionalPhoneNumber, strictObject } from '../camara/strict-body';

/** device-swap.yaml CreateCheckDeviceSwap: maxAge in hours, 1–2400, default 240. */
export const MAX_AGE_DEFAULT_HOURS = 240;
export const MAX_AGE_LIMIT_HOURS = 2400;

export interface RetrieveDateBody { phoneNumber?: string }
export interface CheckBody { phoneNumber?: string; maxAge?: number }

/** CreateDeviceSwapDate: an optional phoneNumber and nothing else. */
export function parseRetrieveDateBody(body: unknown): RetrieveDateBody {
  const phoneNumber = optionalPhoneNumber(strictObject(body, ['phoneNumber']));
  return phoneNumber === undefined ? {} : { phoneNumber };
}

/** CreateCheckDeviceSwap: maxAge of a wrong type is INVALID_ARGUMENT, an integer outside 1–2400 OUT_OF_RANGE. */
export function parseCheckBody(body: unknown): CheckBody {
  const b = strictObject(body, ['phoneNumber', 'maxAge']);
  const out: CheckBody = {};
  const phoneNumber = optionalPhoneNumber(b);
  if (phoneNumber !== undefined) out.phoneNumber = phoneNumber;
  const maxAge = optionalIntegerInRange(b, 'maxAge', 1, MAX_AGE_LIMIT_HOURS, 'hours');
  if (maxAge !== undefined) out.maxAge = maxAge;
  return out;
}
