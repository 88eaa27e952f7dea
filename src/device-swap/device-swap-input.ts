import { CheckBody, RetrieveDateBody, parseCheckBody, parseRetrieveDateBody } from '../camara/camara-input';

/*
 * device-swap.yaml's bodies are SIM Swap's (CreateDeviceSwapDate: an optional phoneNumber;
 * CreateCheckDeviceSwap: and maxAge in hours, 1–2400, default 240), read by the same schemas.
 */

export { MAX_AGE_DEFAULT_HOURS, MAX_AGE_LIMIT_HOURS } from '../camara/camara-input';

export function parseDeviceRetrieveDateBody(body: unknown): RetrieveDateBody {
  return parseRetrieveDateBody(body);
}

/** maxAge of a wrong type is INVALID_ARGUMENT, an integer outside 1–2400 OUT_OF_RANGE. */
export function parseDeviceCheckBody(body: unknown): CheckBody {
  return parseCheckBody(body);
}
