import { BadRequestError } from '../errors/domain-errors';
import { MsisdnNormaliser } from './msisdn';
import { LegacyOperation } from '../partners/operation';
import { isValidTxnId } from './txn-id';

export const MAX_AGE_MIN_HOURS = 1;
export const MAX_AGE_MAX_HOURS = 2400;

/** A request that passed validation: what the verification service works from. */
export interface VerificationInput {
  operation: LegacyOperation;
  /** Exactly as the caller sent it: echoed in the result and part of the txn fingerprint. */
  msisdnRaw: string;
  /** The normalised international form: the key for cache and upstream calls. */
  msisdn: string;
  txnId?: string;
  /** SIM swap look-back window in hours; absent means the configured default. */
  maxAgeHours?: number;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own properties only: a body's `__proto__` or `constructor` is data, never inherited behaviour. */
function field(body: Record<string, unknown>, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(body, name) ? body[name] : undefined;
}

export function validateMsisdn(raw: unknown, normalise: MsisdnNormaliser): { raw: string; msisdn: string } {
  if (raw === undefined) throw new BadRequestError('msisdn is required');
  if (typeof raw !== 'string') throw new BadRequestError('msisdn must be a string');
  const msisdn = normalise(raw);
  if (msisdn === null) throw new BadRequestError('msisdn is malformed');
  return { raw, msisdn };
}

export function validateTxnId(value: unknown, required: boolean): string | undefined {
  if (value === undefined || value === null) {
    if (required) throw new BadRequestError('txn_id is required');
    return undefined;
  }
  if (typeof value !== 'string') throw new BadRequestError('txn_id must be a string');
  if (!isValidTxnId(value)) throw new BadRequestError('txn_id must be 1-25 characters of A-Z a-z 0-9 . _ : -');
  return value;
}

export function validateMaxAge(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MAX_AGE_MIN_HOURS || value > MAX_AGE_MAX_HOURS) {
    throw new BadRequestError(`max_age must be an integer from ${MAX_AGE_MIN_HOURS} to ${MAX_AGE_MAX_HOURS}`);
  }
  return value;
}

/** Validates a REST body (CONTRACT §1, §1.4). Unknown extra fields are ignored. */
export function parseRestBody(body: unknown, operation: LegacyOperation, normalise: MsisdnNormaliser): VerificationInput {
  if (!isPlainObject(body)) throw new BadRequestError('body must be a JSON object');
  const txnId = validateTxnId(field(body, 'txn_id'), true);
  const { raw, msisdn } = validateMsisdn(field(body, 'msisdn'), normalise);
  const input: VerificationInput = { operation, msisdnRaw: raw, msisdn, txnId };
  if (operation === 'sim_swap') {
    const maxAge = validateMaxAge(field(body, 'max_age'));
    if (maxAge !== undefined) input.maxAgeHours = maxAge;
  }
  return input;
}
