import { domainError } from '../errors/domain-errors';

/*
 * Conditions only the CAMARA operations have (CONTRACT §7). The legacy and GraphQL APIs never
 * raise them; their 11111 code is what they would be shown as there.
 */

/** 400 OUT_OF_RANGE: in errors/, as GraphQL raises it too (a partner's look-back over the monitored period). */
export { OutOfRangeError } from '../errors/domain-errors';

/** Neither the token nor the body names the phone number: 422 MISSING_IDENTIFIER. */
export class MissingIdentifierError extends domainError('MISSING_IDENTIFIER') {}

/** A three-legged token names the number and the body names one too: 422 UNNECESSARY_IDENTIFIER. */
export class UnnecessaryIdentifierError extends domainError('UNNECESSARY_IDENTIFIER') {}

/** A well-formed number the service does not cover (another country): 422 SERVICE_NOT_APPLICABLE. */
export class ServiceNotApplicableError extends domainError('SERVICE_NOT_APPLICABLE') {}
