import { Partner } from '../../partners/partners';

/** How the attributes sent compared with the record: how many matched, how many did not (the others: not in the record). */
export interface IdentityTally {
  matched: number;
  mismatched: number;
}

/**
 * What Age Verification reads of a subscriber's customer record. Personal data: it lives for
 * one request and is never cached, logged, audited or echoed (CONTRACT §11, §13).
 */
export interface AgeRecord {
  /** RFC 3339 full-date; absent when the record has none. */
  birthdate?: string;
  /** The record was checked against an official document (the record's `identityVerified`); absent: unknown. */
  identityVerified?: boolean;
  /** KYC Match's comparison of the attributes sent with this record, counted: never a per-attribute answer. */
  tally(attributes: Readonly<Record<string, string>>): IdentityTally;
}

export type ValidatedAttributes = { ok: true; attributes: Record<string, string> } | { ok: false; message: string };

/**
 * KYC Match's identity rules, lent to Age Verification by the composition root (src/camara-apis.ts)
 * so that the two APIs validate, compare and count alike without one feature importing the other.
 */
export interface IdentityChecks {
  /** The attribute names the request may carry, as KYC Match names them. */
  readonly attributeNames: readonly string[];
  /** The identity attributes sent, validated as KYC Match validates them; the message names a property, never a value. */
  validate(attributes: Readonly<Record<string, unknown>>): ValidatedAttributes;
  /** One of the partner's per-number daily allowance, shared with KYC Match (429 when spent); the function gives it back. */
  takeAllowance(partner: Partner, msisdn: string): Promise<() => Promise<void>>;
  /** The subscriber's record (null: none); 503 when customer records cannot answer. */
  record(msisdn: string): Promise<AgeRecord | null>;
}
