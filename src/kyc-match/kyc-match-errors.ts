import { domainError } from '../errors/domain-errors';

/*
 * Conditions only KYC Match has (kyc-match.yaml Generic400, Generic403); their rows are in
 * src/errors/error-catalog.ts. The legacy and GraphQL APIs never raise them; 11111 is what
 * they would be shown as there.
 */

/** The body names no attribute besides phoneNumber: 400 KNOW_YOUR_CUSTOMER.INVALID_PARAM_COMBINATION. */
export class InvalidParamCombinationError extends domainError('INVALID_PARAM_COMBINATION') {}

/** The body's phoneNumber is not the three-legged token's: 403 INVALID_TOKEN_CONTEXT. */
export class InvalidTokenContextError extends domainError('INVALID_TOKEN_CONTEXT') {}

/** KYC_MATCH_ID_DOCUMENT_REQUIRED and no idDocument sent: 403 KNOW_YOUR_CUSTOMER.ID_DOCUMENT_REQUIRED. */
export class IdDocumentRequiredError extends domainError('ID_DOCUMENT_REQUIRED') {}

/** KYC_MATCH_ID_DOCUMENT_REQUIRED and the idDocument sent is not the one on file: 403 KNOW_YOUR_CUSTOMER.ID_DOCUMENT_MISMATCH. */
export class IdDocumentMismatchError extends domainError('ID_DOCUMENT_MISMATCH') {}
