/*
 * The attributes KYC Match compares (kyc-match.yaml 0.4.0, KYC_MatchRequestBody without
 * phoneNumber), in the yaml's order, each with how it is compared and whether the yaml's
 * KYC_MatchResponse has a `<attr>MatchScore` for it. The customer-records system (CONTRACT §11)
 * names its fields the same way, so one list serves the request, the record and the response.
 */

/**
 * How an attribute is normalised before it is compared (docs/kyc-match.md):
 * - `text`: free text in any script; Latin letters also lose their diacritics;
 * - `kana`: a Japanese name's reading, either width, hiragana read as katakana;
 * - `code`: an identifier (document number, postal code): upper case, no spaces, dots, dashes;
 * - `date`: an RFC 3339 full-date, compared exactly;
 * - `enum`: one of the yaml's values, compared exactly;
 * - `country`: an ISO 3166-1 alpha-2 code, compared case-insensitively;
 * - `email`: an address, compared case-insensitively.
 */
export type ComparisonKind = 'text' | 'kana' | 'code' | 'date' | 'enum' | 'country' | 'email';

interface AttributeSpec {
  readonly name: string;
  readonly kind: ComparisonKind;
  /** The yaml's response has `<name>MatchScore`. */
  readonly scored: boolean;
}

export const ATTRIBUTES = [
  { name: 'idDocument', kind: 'code', scored: false },
  { name: 'idDocumentType', kind: 'enum', scored: false },
  { name: 'idDocumentExpiryDate', kind: 'date', scored: false },
  { name: 'name', kind: 'text', scored: true },
  { name: 'givenName', kind: 'text', scored: true },
  { name: 'familyName', kind: 'text', scored: true },
  { name: 'nameKanaHankaku', kind: 'kana', scored: true },
  { name: 'nameKanaZenkaku', kind: 'kana', scored: true },
  { name: 'middleNames', kind: 'text', scored: true },
  { name: 'familyNameAtBirth', kind: 'text', scored: true },
  { name: 'address', kind: 'text', scored: true },
  { name: 'streetName', kind: 'text', scored: true },
  { name: 'streetNumber', kind: 'text', scored: true },
  { name: 'postalCode', kind: 'code', scored: false },
  { name: 'region', kind: 'text', scored: true },
  { name: 'locality', kind: 'text', scored: true },
  { name: 'country', kind: 'country', scored: false },
  { name: 'houseNumberExtension', kind: 'text', scored: false },
  { name: 'birthdate', kind: 'date', scored: false },
  { name: 'email', kind: 'email', scored: true },
  { name: 'gender', kind: 'enum', scored: false },
  { name: 'cityOfBirth', kind: 'text', scored: true },
  { name: 'countryOfBirth', kind: 'country', scored: false },
  { name: 'nationality', kind: 'country', scored: false },
] as const satisfies readonly AttributeSpec[];

export type AttributeName = (typeof ATTRIBUTES)[number]['name'];
export type ScoredAttributeName = Extract<(typeof ATTRIBUTES)[number], { scored: true }>['name'];

export const ATTRIBUTE_NAMES: readonly AttributeName[] = ATTRIBUTES.map((a) => a.name);

/** The yaml's enums, for the request validator. */
export const ID_DOCUMENT_TYPES = ['passport', 'national_id_card', 'residence_permit', 'diplomatic_id', 'driver_licence', 'social_security_id', 'other'] as const;
export const GENDERS = ['MALE', 'FEMALE', 'OTHER'] as const;

/** The attributes a caller sent (already validated), by name. */
export type MatchAttributes = Partial<Record<AttributeName, string>>;

/**
 * A subscriber's verified identity as the customer-records system holds it; any field may be
 * absent. Personal data: never logged, cached, audited or put in an error message.
 */
export type IdentityRecord = Partial<Record<AttributeName, string>> & {
  /** The record was checked against an official identity document (KYC Age Verification's verifiedStatus). */
  identityVerified?: boolean;
};
