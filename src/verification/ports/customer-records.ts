/*
 * The operator's customer-records system (CONTRACT §11), beside the HLR's and SIM management's
 * ports: its client is built with theirs in createUpstreams (one place for every breaker and
 * readiness state), and the APIs that read identity (KYC Match, and KYC Age Verification
 * through it) take this port.
 */

/**
 * The fields of an identity record: KYC Match's request names (kyc-match.yaml 0.4.0), in its
 * order. The simulator keeps its own copy (src/simulator/identity.ts) on purpose: it stands in
 * for another company's system and imports nothing of the service.
 */
export const IDENTITY_FIELDS = [
  'idDocument', 'idDocumentType', 'idDocumentExpiryDate',
  'name', 'givenName', 'familyName', 'nameKanaHankaku', 'nameKanaZenkaku', 'middleNames', 'familyNameAtBirth',
  'address', 'streetName', 'streetNumber', 'postalCode', 'region', 'locality', 'country', 'houseNumberExtension',
  'birthdate', 'email', 'gender', 'cityOfBirth', 'countryOfBirth', 'nationality',
] as const;
export type IdentityField = (typeof IDENTITY_FIELDS)[number];

/**
 * A subscriber's verified identity as the customer-records system holds it; any field may be
 * absent. Personal data: never logged, cached, audited or put in an error message.
 */
export type IdentityRecord = Partial<Record<IdentityField, string>> & {
  /** The record was checked against an official identity document (KYC Age Verification's verifiedStatus). */
  identityVerified?: boolean;
};

/**
 * Resolves a subscriber's identity record, or null when the system holds none for the number;
 * any unavailability (down, 5xx, timeout, open circuit, unreadable answer) rejects with
 * UpstreamUnavailableError. The record is personal data: callers keep it for one request and
 * never log, cache or echo it.
 */
export interface CustomerRecords {
  identity(msisdn: string): Promise<IdentityRecord | null>;
}
