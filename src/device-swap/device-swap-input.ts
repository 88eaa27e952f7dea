import { CheckBody, RetrieveDateBody, parseCheckBody, parseRetrieveDateBody } from '../camara/camara-input';
import { refuseUnknownFields } from '../camara/strict-body';

/*
 * device-swap.yaml's bodies are SIM Swap's (CreateDeviceSwapDate: an optional phoneNumber;
 * CreateCheckDeviceSwap: and maxAge in hours, 1–2400, default 240), read by the same schemas,
 * except that an unknown field is refused.
 */

export { MAX_AGE_DEFAULT_HOURS, MAX_AGE_LIMIT_HOURS } from '../camara/camara-input';

export function parseDeviceRetrieveDateBody(body: unknown): RetrieveDateBody {
  refuseUnknownFields(body, ['phoneNumber']);
  return parseRetrieveDateBody(body);
}

/** maxAge of a wrong type is INVALID_ARGUMENT, an integer outside 1–2400 OUT_OF_RANGE. */
export function parseDeviceCheckBody(body: unknown): CheckBody {
  refuseUnknownFields(body, ['phoneNumber', 'maxAge']);
  return parseCheckBody(body);
}
