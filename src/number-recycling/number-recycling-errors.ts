import { domainError } from '../errors/domain-errors';

/**
 * The HLR does not say when the number's current subscriber began (activatedAt unknown): the
 * answer would be a guess, so none is given (CONTRACT §11). number-recycling.yaml has no code
 * for "no data"; its 422 SERVICE_NOT_APPLICABLE ("the service is not available for the provided
 * identifier") is the nearest.
 */
export class SubscriberStartUnknownError extends domainError('SUBSCRIBER_START_UNKNOWN') {}
