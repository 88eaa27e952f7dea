import { domainError } from '../errors/domain-errors';

/**
 * The number has never been used in a device (or the HLR does not say when it was): there is
 * no device change to tell. device-swap.yaml: "In case the phone number has never been installed
 * in a device ... API will return a 422 error"; its scenarios name SERVICE_NOT_APPLICABLE.
 */
export class NeverInDeviceError extends domainError('NEVER_IN_DEVICE') {}
