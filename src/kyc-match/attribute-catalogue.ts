import { IDENTITY_FIELDS, IdentityField } from '../verification/ports/customer-records';

/*
 * The attributes KYC Match compares (kyc-match.yaml 0.4.0, KYC_MatchRequestBody without
 * phoneNumber), in the yaml's order, each with how it is compared and whether the yaml's
 * KYC_MatchResponse has a `<attr>MatchScore` for it. The customer-records system (CONTRACT §11)
 * names its fields the same way, so one list (the port's IDENTITY_FIELDS) serves the request,
 * the record and the response.
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

/** How one attribute is compared, and whether the yaml's response scores it (`<name>MatchScore`). */
interface Comparison {
  readonly kind: ComparisonKind;
  readonly scored: boolean;
}

/** Every field of the record, none other (the compiler checks both). */
const COMPARISONS = {
  idDocument: { kind: 'code', scored: false },
  idDocumentType: { kind: 'enum', scored: false },
  idDocumentExpiryDate: { kind: 'date', scored: false },
  name: { kind: 'text', scored: true },
  givenName: { kind: 'text', scored: true },
  familyName: { kind: 'text', scored: true },
  nameKanaHankaku: { kind: 'kana', scored: true },
  nameKanaZenkaku: { kind: 'kana', scored: true },
  middleNames: { kind: 'text', scored: true },
  familyNameAtBirth: { kind: 'text', scored: true },
  address: { kind: 'text', scored: true },
  streetName: { kind: 'text', scored: true },
  streetNumber: { kind: 'text', scored: true },
  postalCode: { kind: 'code', scored: false },
  region: { kind: 'text', scored: true },
  locality: { kind: 'text', scored: true },
  country: { kind: 'country', scored: false },
  houseNumberExtension: { kind: 'text', scored: false },
  birthdate: { kind: 'date', scored: false },
  email: { kind: 'email', scored: true },
  gender: { kind: 'enum', scored: false },
  cityOfBirth: { kind: 'text', scored: true },
  countryOfBirth: { kind: 'country', scored: false },
  nationality: { kind: 'country', scored: false },
} as const satisfies Record<IdentityField, Comparison>;

/** The attributes in the yaml's order, each with its comparison. */
export const ATTRIBUTES: ReadonlyArray<{ readonly name: IdentityField } & (typeof COMPARISONS)[IdentityField]> =
  IDENTITY_FIELDS.map((name) => ({ name, ...COMPARISONS[name] }));

export type AttributeName = IdentityField;
export type ScoredAttributeName = { [K in IdentityField]: (typeof COMPARISONS)[K]['scored'] extends true ? K : never }[IdentityField];

export const ATTRIBUTE_NAMES: readonly AttributeName[] = IDENTITY_FIELDS;

/** The yaml's enums, for the request validator. */
export const ID_DOCUMENT_TYPES = ['passport', 'national_id_card', 'residence_permit', 'diplomatic_id', 'driver_licence', 'social_security_id', 'other'] as const;
export const GENDERS = ['MALE', 'FEMALE', 'OTHER'] as const;

/** The attributes a caller sent (already validated), by name. */
export type MatchAttributes = Partial<Record<AttributeName, string>>;
