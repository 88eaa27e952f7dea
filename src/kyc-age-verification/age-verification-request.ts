import { PHONE_EXPECTATION, PHONE_NUMBER } from '../camara/camara-input';
import { OutOfRangeError } from '../camara/camara-errors';
import { flatShape, refuseUndeclared } from '../camara/strict-body';
import { BadRequestError } from '../errors/domain-errors';
import { isPlainObject } from '../kernel/plain-object';
import { IdentityChecks } from './ports/identity-checks';

/*
 * kyc-age-verification.yaml's VerifyRequestBody. The identity attributes it allows are a subset
 * of KYC Match's, validated by KYC Match's rules; a problem names the property, never a value.
 */

/** The identity attributes the yaml lets a caller add (each one of KYC Match's). */
export const AGE_IDENTITY_ATTRIBUTES = ['idDocument', 'name', 'givenName', 'familyName', 'middleNames', 'familyNameAtBirth', 'birthdate', 'email'] as const;

const MIN_THRESHOLD = 0;
const MAX_THRESHOLD = 120;
const DECLARED = flatShape(['ageThreshold', 'phoneNumber', ...AGE_IDENTITY_ATTRIBUTES, 'includeContentLock', 'includeParentalControl']);

export interface AgeVerificationRequest {
  ageThreshold: number;
  phoneNumber?: string;
  /** The identity attributes sent, validated; empty when none. */
  attributes: Record<string, string>;
  includeContentLock: boolean;
  includeParentalControl: boolean;
}

function flag(body: Record<string, unknown>, name: string): boolean {
  const value = body[name];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new BadRequestError(`${name} must be a boolean`);
  return value;
}

/** The request, or 400 INVALID_ARGUMENT (OUT_OF_RANGE for a threshold outside 0–120). */
export function parseAgeVerificationRequest(body: unknown, identity: Pick<IdentityChecks, 'validate'>): AgeVerificationRequest {
  if (!isPlainObject(body)) throw new BadRequestError('the request body must be a JSON object');
  refuseUndeclared(body, DECLARED);
  const threshold = body.ageThreshold;
  if (threshold === undefined) throw new BadRequestError('ageThreshold is required');
  if (typeof threshold !== 'number' || !Number.isInteger(threshold)) throw new BadRequestError('ageThreshold must be an integer number of years');
  if (threshold < MIN_THRESHOLD || threshold > MAX_THRESHOLD) throw new OutOfRangeError(`ageThreshold must be from ${MIN_THRESHOLD} to ${MAX_THRESHOLD}`);
  const phone = body.phoneNumber;
  if (phone !== undefined && (typeof phone !== 'string' || !PHONE_NUMBER.test(phone))) throw new BadRequestError(PHONE_EXPECTATION);
  const sent: Record<string, unknown> = {};
  for (const name of AGE_IDENTITY_ATTRIBUTES) if (body[name] !== undefined) sent[name] = body[name];
  const validated = identity.validate(sent);
  if (!validated.ok) throw new BadRequestError(validated.message);
  return {
    ageThreshold: threshold,
    ...(phone === undefined ? {} : { phoneNumber: phone }),
    attributes: validated.attributes,
    includeContentLock: flag(body, 'includeContentLock'),
    includeParentalControl: flag(body, 'includeParentalControl'),
  };
}
