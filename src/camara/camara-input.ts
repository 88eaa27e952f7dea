import { z } from 'zod/v4';
import { MissingIdentifierError, OutOfRangeError, ServiceNotApplicableError, UnnecessaryIdentifierError } from './camara-errors';
import { BadRequestError, NotSubscriberError } from '../errors/domain-errors';
import { NumberingPlan } from '../kernel/msisdn';
import { parseFullDate } from '../kernel/zoned-date';
import { ownObject, parseBody, typeMessage } from '../kernel/body-schema';
import { onlyFields } from './strict-body';

/*
 * The CAMARA request bodies (CONTRACT §7; sim-swap.yaml CreateSimSwapDate and CreateCheckSimSwap,
 * kyc-tenure.yaml Tenure; Device Swap's and Call Forwarding Signal's are the same). A property the
 * schema does not declare is refused (strict-body.ts, CONTRACT §13's one body rule).
 */

export const PHONE_NUMBER = /^\+[1-9][0-9]{4,14}$/;
export const MAX_AGE_DEFAULT_HOURS = 240;
export const MAX_AGE_LIMIT_HOURS = 2400;
export const PHONE_EXPECTATION = 'phoneNumber must be an E.164 number with a leading + (^\\+[1-9][0-9]{4,14}$)';

export interface RetrieveDateBody { phoneNumber?: string }
export interface CheckBody { phoneNumber?: string; maxAge?: number }
export interface TenureBody { phoneNumber?: string; tenureDate: string }

const OUT_OF_RANGE = 'OUT_OF_RANGE';
export const BODY_MESSAGE = 'the request body must be a JSON object';

/** Absent is fine; anything else must be an E.164 number (null too: the schemas do not allow null). */
export const phoneNumber = z.string(PHONE_EXPECTATION).regex(PHONE_NUMBER, PHONE_EXPECTATION).optional();

const retrieveDateSchema = ownObject({ phoneNumber }, BODY_MESSAGE);

/** maxAge: a wrong type is INVALID_ARGUMENT; an integer outside 1–2400 is OUT_OF_RANGE. */
const checkSchema = ownObject({
  phoneNumber,
  maxAge: z.number('maxAge must be an integer number of hours').refine(Number.isInteger, 'maxAge must be an integer number of hours')
    .refine((h) => h >= 1 && h <= MAX_AGE_LIMIT_HOURS, { message: `maxAge must be from 1 to ${MAX_AGE_LIMIT_HOURS} hours`, params: { kind: OUT_OF_RANGE } })
    .optional(),
}, BODY_MESSAGE);

/** A required RFC 3339 full-date naming a real day (YYYY-MM-DD); whether it is in the future is the caller's check. */
export function fullDate(name: string) {
  const expectation = `${name} must be a date in the form YYYY-MM-DD`;
  return z.string(typeMessage(`${name} is required`, expectation)).refine((d) => parseFullDate(d) !== undefined, expectation);
}

/** tenureDate: checked before phoneNumber; the future is checked later. */
const tenureSchema = ownObject({ tenureDate: fullDate('tenureDate'), phoneNumber }, BODY_MESSAGE);

/** A CAMARA body's value, or its first problem as the error class CAMARA answers it with. */
export function parseCamaraBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = parseBody(schema, body);
  if (result.ok) return result.value;
  throw result.kind === OUT_OF_RANGE ? new OutOfRangeError(result.message) : new BadRequestError(result.message);
}

/** Only the properties that were sent: an absent one stays absent, never `undefined`. */
export function sent<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const onlyRetrieveDateFields = onlyFields(['phoneNumber']);

export function parseRetrieveDateBody(body: unknown): RetrieveDateBody {
  onlyRetrieveDateFields(body);
  return sent(parseCamaraBody(retrieveDateSchema, body));
}

const onlyCheckFields = onlyFields(['phoneNumber', 'maxAge']);

export function parseCheckBody(body: unknown): CheckBody {
  onlyCheckFields(body);
  return sent(parseCamaraBody(checkSchema, body));
}

const onlyTenureFields = onlyFields(['phoneNumber', 'tenureDate']);

export function parseTenureBody(body: unknown): TenureBody {
  onlyTenureFields(body);
  return sent(parseCamaraBody(tenureSchema, body));
}

/**
 * The number a request is about: from a three-legged token, else the body, never both
 * (sim-swap.yaml and kyc-tenure.yaml, "Identifying the phone number from the access token").
 */
export function subjectOf(tokenPhone: string | undefined, bodyPhone: string | undefined): string {
  if (tokenPhone !== undefined && bodyPhone !== undefined) {
    throw new UnnecessaryIdentifierError('the phone number is already identified by the access token; do not send phoneNumber');
  }
  const phone = tokenPhone ?? bodyPhone;
  if (phone === undefined) throw new MissingIdentifierError('phoneNumber is required when the access token does not identify a phone number');
  return phone;
}

/**
 * The normalised msisdn (digits, no `+`) of an E.164 number: another country's number is not
 * applicable; ours with an impossible national number cannot be a subscriber.
 */
export function msisdnOfPhone(phone: string, plan: NumberingPlan): string {
  if (!PHONE_NUMBER.test(phone)) throw new BadRequestError('the phone number is not E.164');
  const digits = phone.slice(1);
  if (!digits.startsWith(plan.countryCode)) {
    throw new ServiceNotApplicableError(`the service is only available for numbers with country code +${plan.countryCode}`);
  }
  const nsn = digits.slice(plan.countryCode.length);
  if (nsn.length !== plan.nsnLength || nsn.startsWith('0')) throw new NotSubscriberError('the phone number is not associated with a subscriber');
  return digits;
}
