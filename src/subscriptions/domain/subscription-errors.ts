import { domainError } from '../../errors/domain-errors';

/* Conditions only the subscriptions API has (sim-swap-subscriptions.yaml, CreateSubscriptionBadRequest400). */

/** `protocol` is not HTTP: 400 INVALID_PROTOCOL. */
export class InvalidProtocolError extends domainError('INVALID_PROTOCOL') {}

/** `sinkCredential.credentialType` is not one this service supports: 400 INVALID_CREDENTIAL. */
export class InvalidCredentialError extends domainError('INVALID_CREDENTIAL') {}

/** An ACCESSTOKEN credential whose token type is not bearer: 400 INVALID_TOKEN. */
export class InvalidTokenTypeError extends domainError('INVALID_TOKEN_TYPE') {}

/** A sink CONTRACT §8 refuses (http when not allowed, private or loopback address): 400 INVALID_SINK. */
export class InvalidSinkError extends domainError('INVALID_SINK') {}

/** No such subscription for this partner (another partner's id included): 404 NOT_FOUND. */
export class SubscriptionNotFoundError extends domainError('SUBSCRIPTION_NOT_FOUND') {}

/** The partner already holds SUBSCRIPTIONS_MAX_PER_PARTNER live subscriptions: 429 QUOTA_EXCEEDED (Generic429). */
export class SubscriptionQuotaError extends domainError('SUBSCRIPTION_QUOTA') {}
