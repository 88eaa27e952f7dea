import { z } from 'zod/v4';
import { BadRequestError } from '../errors/domain-errors';
import { fail, ownObject, parseBody, typeMessage } from '../kernel/body-schema';
import { MsisdnNormaliser } from '../kernel/msisdn';
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

/*
 * The legacy body's fields (CONTRACT §1, §1.4) as zod schemas, shared by the REST body and the
 * GraphQL arguments of the same name. null is "not sent" for txn_id and max_age.
 */

const TXN_ID_FORMAT = 'txn_id must be 1-25 characters of A-Z a-z 0-9 . _ : -';
const optionalTxnId = z.string('txn_id must be a string').refine(isValidTxnId, TXN_ID_FORMAT)
  .nullish().transform((v) => v ?? undefined);
const requiredTxnId = z.preprocess((v) => v ?? undefined, z.string(typeMessage('txn_id is required', 'txn_id must be a string'))
  .refine(isValidTxnId, TXN_ID_FORMAT));

const maxAgeMessage = `max_age must be an integer from ${MAX_AGE_MIN_HOURS} to ${MAX_AGE_MAX_HOURS}`;
const maxAge = z.number(maxAgeMessage).refine(Number.isInteger, maxAgeMessage)
  .min(MAX_AGE_MIN_HOURS, maxAgeMessage).max(MAX_AGE_MAX_HOURS, maxAgeMessage)
  .nullish().transform((v) => v ?? undefined);

function msisdnSchema(normalise: MsisdnNormaliser) {
  return z.string(typeMessage('msisdn is required', 'msisdn must be a string'))
    .transform((raw, ctx) => {
      const msisdn = normalise(raw);
      return msisdn === null ? fail(ctx, 'msisdn is malformed') : { raw, msisdn };
    });
}

/** The reporter's own id for a swap event: the same on each retry of one report, so its events are queued once. */
const SWAP_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const swapIdMessage = 'eventId must be 1 to 128 characters of A-Z a-z 0-9 . _ : -';

/** Unknown extra fields are ignored; the field order is the order problems are reported in. */
function restBodySchemas(normalise: MsisdnNormaliser) {
  const msisdn = msisdnSchema(normalise);
  const kyc = ownObject({ txn_id: requiredTxnId, msisdn }, 'body must be a JSON object');
  const simSwap = ownObject({ txn_id: requiredTxnId, msisdn, max_age: maxAge }, 'body must be a JSON object');
  const swapEvent = ownObject({ msisdn, eventId: z.string(swapIdMessage).regex(SWAP_ID, swapIdMessage).optional() },
    'body must be a JSON object');
  return { msisdn, kyc, sim_swap: simSwap, swapEvent };
}

/** Built once per normaliser (one per process): a schema is cheap to run, not to build. */
const schemasByNormaliser = new WeakMap<MsisdnNormaliser, ReturnType<typeof restBodySchemas>>();

function schemasFor(normalise: MsisdnNormaliser): ReturnType<typeof restBodySchemas> {
  let schemas = schemasByNormaliser.get(normalise);
  if (schemas === undefined) {
    schemas = restBodySchemas(normalise);
    schemasByNormaliser.set(normalise, schemas);
  }
  return schemas;
}

function valueOrThrow<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = parseBody(schema, value);
  if (!result.ok) throw new BadRequestError(result.message);
  return result.value;
}

export function validateMsisdn(raw: unknown, normalise: MsisdnNormaliser): { raw: string; msisdn: string } {
  return valueOrThrow(schemasFor(normalise).msisdn, raw);
}

export function validateTxnId(value: unknown, required: boolean): string | undefined {
  return valueOrThrow(required ? requiredTxnId : optionalTxnId, value);
}

export function validateMaxAge(value: unknown): number | undefined {
  return valueOrThrow(maxAge, value);
}

/** Validates a REST body (CONTRACT §1, §1.4). Unknown extra fields are ignored. */
export function parseRestBody(body: unknown, operation: LegacyOperation, normalise: MsisdnNormaliser): VerificationInput {
  const schemas = schemasFor(normalise);
  if (operation === 'kyc') {
    const { txn_id: txnId, msisdn } = valueOrThrow(schemas.kyc, body);
    return { operation, msisdnRaw: msisdn.raw, msisdn: msisdn.msisdn, txnId };
  }
  const { txn_id: txnId, msisdn, max_age: maxAgeHours } = valueOrThrow(schemas.sim_swap, body);
  const input: VerificationInput = { operation, msisdnRaw: msisdn.raw, msisdn: msisdn.msisdn, txnId };
  if (maxAgeHours !== undefined) input.maxAgeHours = maxAgeHours;
  return input;
}

/** SIM-management's swap event (CONTRACT §5): the normalised number and the reporter's optional event id. */
export function parseSwapEventBody(body: unknown, normalise: MsisdnNormaliser): { msisdn: string; swapId?: string } {
  const { msisdn, eventId } = valueOrThrow(schemasFor(normalise).swapEvent, body);
  return eventId === undefined ? { msisdn: msisdn.msisdn } : { msisdn: msisdn.msisdn, swapId: eventId };
}
