import { MissingIdentifierError, OutOfRangeError, ServiceNotApplicableError, UnnecessaryIdentifierError } from './camara-errors';
import { BadRequestError, NotSubscriberError } from '../errors/domain-errors';
import { NumberingPlan } from '../verification/msisdn';
import { parseFullDate } from '../kernel/zoned-date';

/*
 * The CAMARA request bodies (CONTRACT §7; sim-swap.yaml CreateSimSwapDate and CreateCheckSimSwap,
 * kyc-tenure.yaml Tenure). The schemas do not forbid additional properties, so unknown fields
 * are ignored, as the legacy API ignores them.
 */

export const PHONE_NUMBER = /^\+[1-9][0-9]{4,14}$/;
export const MAX_AGE_DEFAULT_HOURS = 240;
export const MAX_AGE_LIMIT_HOURS = 2400;

export interface RetrieveDateBody { phoneNumber?: string }
export interface CheckBody { phoneNumber?: string; maxAge?: number }
export interface TenureBody { phoneNumber?: string; tenureDate: string }

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own properties only: `__proto__` or `constructor` in a body is data, never inherited behaviour. */
function field(body: Record<string, unknown>, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(body, name) ? body[name] : undefined;
}

function object(body: unknown): Record<string, unknown> {
  if (!isPlainObject(body)) throw new BadRequestError('the request body must be a JSON object');
  return body;
}

function phoneNumber(body: Record<string, unknown>): string | undefined {
  const value = field(body, 'phoneNumber');
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !PHONE_NUMBER.test(value)) {
    throw new BadRequestError('phoneNumber must be an E.164 number with a leading + (^\\+[1-9][0-9]{4,14}$)');
  }
  return value;
}

export function parseRetrieveDateBody(body: unknown): RetrieveDateBody {
  const phone = phoneNumber(object(body));
  return phone === undefined ? {} : { phoneNumber: phone };
}

/** maxAge: a wrong type is INVALID_ARGUMENT; an integer outside 1–2400 is OUT_OF_RANGE. */
export function parseCheckBody(body: unknown): CheckBody {
  const b = object(body);
  const out: CheckBody = {};
  const phone = phoneNumber(b);
  if (phone !== undefined) out.phoneNumber = phone;
  const maxAge = field(b, 'maxAge');
  if (maxAge !== undefined) {
    if (typeof maxAge !== 'number' || !Number.isInteger(maxAge)) throw new BadRequestError('maxAge must be an integer number of hours');
    if (maxAge < 1 || maxAge > MAX_AGE_LIMIT_HOURS) throw new OutOfRangeError(`maxAge must be from 1 to ${MAX_AGE_LIMIT_HOURS} hours`);
    out.maxAge = maxAge;
  }
  return out;
}

/** tenureDate: a required RFC 3339 full-date naming a real day; whether it is in the future is checked later. */
export function parseTenureBody(body: unknown): TenureBody {
  const b = object(body);
  const tenureDate = field(b, 'tenureDate');
  if (tenureDate === undefined) throw new BadRequestError('tenureDate is required');
  if (typeof tenureDate !== 'string' || parseFullDate(tenureDate) === undefined) {
    throw new BadRequestError('tenureDate must be a date in the form YYYY-MM-DD');
  }
  const phone = phoneNumber(b);
  return phone === undefined ? { tenureDate } : { phoneNumber: phone, tenureDate };
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
