import { domainError } from '../errors/domain-errors';

/** CALL_FORWARDING_LIST=false: the operator does not offer the full list, 501 NOT_IMPLEMENTED (call-forwarding-signal.yaml). */
export class CallForwardingListNotOfferedError extends domainError('CALL_FORWARDING_LIST_NOT_OFFERED') {}
