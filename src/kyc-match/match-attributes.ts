import { createHash, timingSafeEqual } from 'node:crypto';
import { ATTRIBUTES, AttributeName, MatchAttributes, ScoredAttributeName } from './attribute-catalogue';
import { IdentityRecord } from '../verification/ports/customer-records';
import { jaroWinkler } from './jaro-winkler';
import { normalise } from './normalise';

/*
 * The KYC Match comparison (CONTRACT §11, kyc-match.yaml KYC_MatchResponse): each attribute
 * the caller sent against the subscriber's identity record. No value of either side leaves
 * this module except as "true" / "false" / "not_available" and a score.
 */

export type MatchResult = 'true' | 'false' | 'not_available';

/** The yaml's KYC_MatchResponse: `<attr>Match` for each attribute sent, `<attr>MatchScore` beside a scored "false". */
export type KycMatchResponse =
  & { [K in AttributeName as `${K}Match`]?: MatchResult }
  & { [K in ScoredAttributeName as `${K}MatchScore`]?: number };

/** The yaml's 403s when the operator requires idDocument (KNOW_YOUR_CUSTOMER.ID_DOCUMENT_*). */
export type RefusalReason = 'ID_DOCUMENT_REQUIRED' | 'ID_DOCUMENT_MISMATCH';

/** What the audit record may say about a match: attribute names and counts, never a value. */
export interface MatchSummary {
  compared: AttributeName[];
  true: number;
  false: number;
  notAvailable: number;
}

export type MatchOutcome =
  | { kind: 'matched'; response: KycMatchResponse; summary: MatchSummary }
  | { kind: 'refused'; reason: RefusalReason; summary: MatchSummary };

export interface MatchOptions {
  /** Add `<attr>MatchScore` to a scored attribute's "false" (KYC_MATCH_SCORES). */
  scores: boolean;
  /** idDocument must be sent and match before anything else is compared (KYC_MATCH_ID_DOCUMENT_REQUIRED). */
  idDocumentRequired: boolean;
}

/**
 * Longest normalised value a score is computed for, in code points. Jaro-Winkler costs
 * length × window; the request's values are far shorter, so only an odd record value hits
 * this, and the yaml lets an operator omit a score it cannot calculate.
 */
export const MAX_SCORED_LENGTH = 1024;

const KIND = new Map<AttributeName, (typeof ATTRIBUTES)[number]>(ATTRIBUTES.map((a) => [a.name, a]));

/** A record field as a usable string: own, a string, and not blank once normalised. */
function recordField(record: IdentityRecord, name: AttributeName): string | undefined {
  if (!Object.hasOwn(record, name)) return undefined;
  const value: unknown = record[name];
  if (typeof value !== 'string') return undefined;
  return normalise(KIND.get(name)!.kind, value) === '' ? undefined : value;
}

/**
 * The record's value an attribute is compared with. `name` falls back to given, middle and
 * family names joined (CONTRACT §11); one kana width falls back to the other, since both
 * normalise to the same full-width reading (docs/kyc-match.md).
 */
function recordValue(record: IdentityRecord, name: AttributeName): string | undefined {
  const own = recordField(record, name);
  if (own !== undefined) return own;
  switch (name) {
    case 'name': {
      const parts = (['givenName', 'middleNames', 'familyName'] as const).map((p) => recordField(record, p)).filter((p) => p !== undefined);
      return parts.length === 0 ? undefined : parts.join(' ');
    }
    case 'nameKanaHankaku': return recordField(record, 'nameKanaZenkaku');
    case 'nameKanaZenkaku': return recordField(record, 'nameKanaHankaku');
    default: return undefined;
  }
}

/**
 * floor(similarity × 100), at most 99: 100 would claim a match the comparison did not find.
 * (Unequal values within MAX_SCORED_LENGTH never get that close to 1: the cap is a guard.)
 * The epsilon keeps a similarity such as 0.84, stored as 0.83999…, at 84.
 */
export function scoreOf(left: string, right: string): number | undefined {
  if ([...left].length > MAX_SCORED_LENGTH || [...right].length > MAX_SCORED_LENGTH) return undefined;
  return Math.min(99, Math.floor(jaroWinkler(left, right) * 100 + 1e-9));
}

/** Equal in constant time for the values' digests: the idDocument gate is an access check. */
function sameSecret(left: string, right: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v, 'utf8').digest();
  return timingSafeEqual(digest(left), digest(right));
}

function idDocumentGate(request: MatchAttributes, record: IdentityRecord | undefined): RefusalReason | undefined {
  if (request.idDocument === undefined) return 'ID_DOCUMENT_REQUIRED';
  const stored = record === undefined ? undefined : recordField(record, 'idDocument');
  // No document on file: the one sent cannot be "the one bound to the phone number" (fail closed).
  if (stored === undefined) return 'ID_DOCUMENT_MISMATCH';
  return sameSecret(normalise('code', request.idDocument), normalise('code', stored)) ? undefined : 'ID_DOCUMENT_MISMATCH';
}

/** Compares what the caller sent with the record (undefined: the subscriber has none). */
export function matchAttributes(request: MatchAttributes, record: IdentityRecord | undefined, options: MatchOptions): MatchOutcome {
  const summary: MatchSummary = { compared: [], true: 0, false: 0, notAvailable: 0 };
  if (options.idDocumentRequired) {
    const reason = idDocumentGate(request, record);
    if (reason !== undefined) return { kind: 'refused', reason, summary };
  }
  const response: KycMatchResponse = {};
  for (const { name, kind, scored } of ATTRIBUTES) {
    const sent = request[name];
    if (sent === undefined) continue;
    summary.compared.push(name);
    const stored = record === undefined ? undefined : recordValue(record, name);
    if (stored === undefined) {
      response[`${name}Match` as const] = 'not_available';
      summary.notAvailable++;
      continue;
    }
    const left = normalise(kind, sent);
    const right = normalise(kind, stored);
    if (left === right) {
      response[`${name}Match` as const] = 'true';
      summary.true++;
      continue;
    }
    response[`${name}Match` as const] = 'false';
    summary.false++;
    const score = scored && options.scores ? scoreOf(left, right) : undefined;
    if (score !== undefined) response[`${name as ScoredAttributeName}MatchScore` as const] = score;
  }
  return { kind: 'matched', response, summary };
}
