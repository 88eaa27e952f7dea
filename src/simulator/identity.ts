import { isPlainObject } from '../kernel/plain-object';

/**
 * The simulated customer-records system's identity record (CONTRACT §11): the fields carry the
 * names of CAMARA KYC Match's request (kyc-match.yaml 0.4.0), in its order, so the service
 * compares like with like. Kept apart from the service's own list: the simulator stands in for
 * another company's system and must not move when the service's code does.
 */
export const IDENTITY_FIELDS = [
  'idDocument', 'idDocumentType', 'idDocumentExpiryDate',
  'name', 'givenName', 'familyName', 'nameKanaHankaku', 'nameKanaZenkaku', 'middleNames', 'familyNameAtBirth',
  'address', 'streetName', 'streetNumber', 'postalCode', 'region', 'locality', 'country', 'houseNumberExtension',
  'birthdate', 'email', 'gender', 'cityOfBirth', 'countryOfBirth', 'nationality',
] as const;
export type IdentityField = (typeof IDENTITY_FIELDS)[number];

/** Any field may be absent: a CRM rarely holds everything. `identityVerified`: checked against an official document. */
export type IdentityRecord = Partial<Record<IdentityField, string>> & { identityVerified?: boolean };

/** Far above any real name or address; keeps a fixture typo (a pasted file) from becoming a record. */
export const IDENTITY_VALUE_MAX = 256;

/** The record's verification flag (KYC Age Verification's verifiedStatus): the one field that is not a string. */
const VERIFIED = 'identityVerified';
const FIELD_SET: ReadonlySet<string> = new Set([...IDENTITY_FIELDS, VERIFIED]);

/**
 * Validates an identity record: an object of known fields with string values. The values'
 * formats (dates, enums, country codes) are deliberately not checked: a real CRM holds
 * irregular data ("male", "2001-2-3"), and tests must be able to hand the service such records.
 * Returns a clean copy with the fields in the order of IDENTITY_FIELDS.
 */
export function parseIdentity(raw: unknown, where: string): IdentityRecord {
  if (!isPlainObject(raw)) {
    throw new Error(`${where} must be a JSON object of identity fields (or null: no record)`);
  }
  const r = raw;
  for (const key of Object.keys(r)) {
    if (!FIELD_SET.has(key)) throw new Error(`${where}.${key} is not an identity field (${IDENTITY_FIELDS.join(', ')}, ${VERIFIED})`);
  }
  const record: IdentityRecord = {};
  for (const field of IDENTITY_FIELDS) {
    const value = r[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > IDENTITY_VALUE_MAX) {
      throw new Error(`${where}.${field} must be a string of at most ${IDENTITY_VALUE_MAX} characters`);
    }
    record[field] = value;
  }
  const verified = r[VERIFIED];
  if (verified !== undefined && typeof verified !== 'boolean') throw new Error(`${where}.${VERIFIED} must be a boolean`);
  if (verified !== undefined) record.identityVerified = verified;
  return record;
}
