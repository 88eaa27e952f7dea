import { ATTRIBUTE_NAMES } from './attribute-catalogue';
import { KycMatchService } from './kyc-match-service';
import { matchAttributes } from './match-attributes';
import { parseMatchRequest } from './match-request';
import { UpstreamUnavailableError } from '../errors/domain-errors';
import { CustomerRecords, IdentityRecord } from '../verification/ports/customer-records';

/*
 * KYC Match's identity rules as another API uses them (KYC Age Verification, CONTRACT §13): the
 * same validation, comparison and per-number allowance. Structurally typed: the composition
 * root hands this to the other API's port, so neither feature imports the other.
 */

const NO_OPTIONS = { scores: false, idDocumentRequired: false };

export function kycIdentityChecks(service: KycMatchService, records: CustomerRecords | undefined) {
  return {
    attributeNames: ATTRIBUTE_NAMES,
    validate(attributes: Readonly<Record<string, unknown>>): { ok: true; attributes: Record<string, string> } | { ok: false; message: string } {
      if (Object.keys(attributes).length === 0) return { ok: true, attributes: {} };
      const parsed = parseMatchRequest(attributes);
      if (!parsed.ok) return { ok: false, message: parsed.problems.map((p) => p.message).join('; ') };
      return { ok: true, attributes: parsed.attributes };
    },
    takeAllowance: (partner: Parameters<KycMatchService['takeAllowance']>[0], msisdn: string) => service.takeAllowance(partner, msisdn),
    async record(msisdn: string) {
      if (!records) throw new UpstreamUnavailableError('customer records are not configured', 60);
      const record: IdentityRecord | null = await records.identity(msisdn);
      if (record === null) return null;
      return {
        ...(record.birthdate === undefined ? {} : { birthdate: record.birthdate }),
        ...(record.identityVerified === undefined ? {} : { identityVerified: record.identityVerified }),
        tally(sent: Readonly<Record<string, string>>) {
          const outcome = matchAttributes(sent, record, NO_OPTIONS);
          return { matched: outcome.summary.true, mismatched: outcome.summary.false };
        },
      };
    },
  };
}
