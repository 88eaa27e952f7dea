import { domainError } from '../errors/domain-errors';

/**
 * The HLR does not say which forwarding services the line has (the field is absent):
 * call-forwarding-signal's scenarios answer "a valid phone number for which the call
 * forwarding status could not be retrieved" with 404 IDENTIFIER_NOT_FOUND.
 */
export class CallForwardingUnknownError extends domainError('CALL_FORWARDING_UNKNOWN') {}

/** CALL_FORWARDING_LIST=false: the operator does not offer the full list, 501 NOT_IMPLEMENTED (call-forwarding-signal.yaml). */
export class CallForwardingListNotOfferedError extends domainError('CALL_FORWARDING_LIST_NOT_OFFERED') {}
