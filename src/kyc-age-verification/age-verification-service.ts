import { CamaraCallDeps, CamaraCaller, camaraCaller, requireScope, subscriberOf } from '../camara/camara-call';
import { UpstreamUnavailableError } from '../errors/domain-errors';
import { Clock } from '../kernel/clock';
import { ZonedCalendar } from '../kernel/zoned-date';
import { AccessGrant } from '../oauth/ports/access-tokens';
import { camaraApi } from '../partners/camara-apis';
import { VerificationService } from '../verification/verification-service';
import { AgeCheck, ageCheck, identityMatchScore } from './age-check';
import { parseAgeVerificationRequest } from './age-verification-request';
import { IdentityChecks } from './ports/identity-checks';

const DECLARATION = camaraApi('kyc-age-verification');
const VERIFY = DECLARATION.operations[0];

/** The yaml's VerifyResponseBody; contentLock and parentalControl only when asked for and the HLR knows them. */
export interface VerifyResponse {
  ageCheck: AgeCheck;
  verifiedStatus?: boolean;
  identityMatchScore?: number;
  contentLock?: 'true' | 'false';
  parentalControl?: 'true' | 'false';
}

export interface AgeVerificationDeps {
  verification: Pick<VerificationService, 'hlrFactsWithTenure'>;
  call: CamaraCallDeps;
  identity: IdentityChecks;
  clock: Clock;
  /** TIMEZONE's calendar: which day is today, for the age in whole years. */
  calendar: ZonedCalendar;
}

/**
 * KYC Age Verification 0.2.1 (CONTRACT §13). Checks in the order of the other CAMARA APIs: scope
 * (403), body (400), identifier (422) and number plan; then, audited as `age_verification.verify`
 * (never with a value of the request or the record), admission (403/429), one use of KYC Match's
 * per-number allowance (429), the subscriber (404), the customer record (503, the use given back).
 * contentLock and parentalControl come from the HLR's facts of the line, only when asked for and known.
 */
export class AgeVerificationService {
  private readonly call: CamaraCaller<'verify'>;

  constructor(private readonly deps: AgeVerificationDeps) {
    this.call = camaraCaller(deps.call, 'kyc-age-verification');
  }

  async verify(grant: AccessGrant, body: unknown, correlator: string): Promise<{ msisdn: string; response: VerifyResponse }> {
    requireScope(grant, VERIFY.scopes);
    const request = parseAgeVerificationRequest(body, this.deps.identity);
    return this.call({ grant, phoneNumber: request.phoneNumber, operation: 'verify', correlator }, async (msisdn) => {
      const giveBack = await this.deps.identity.takeAllowance(grant.partner, msisdn);
      const line = subscriberOf(await this.deps.verification.hlrFactsWithTenure(msisdn), 'the phone number is not associated with a customer account');
      const record = await this.deps.identity.record(msisdn).catch(async (err: unknown) => {
        // An upstream that could not answer taught the caller nothing: the use is given back.
        if (err instanceof UpstreamUnavailableError) await giveBack();
        throw err;
      });
      const today = this.deps.calendar.dateAt(this.deps.clock.nowMs());
      const response: VerifyResponse = { ageCheck: ageCheck(record?.birthdate, today, request.ageThreshold) };
      if (record?.identityVerified !== undefined) response.verifiedStatus = record.identityVerified;
      const score = record === null || Object.keys(request.attributes).length === 0 ? undefined : identityMatchScore(record.tally(request.attributes));
      if (score !== undefined) response.identityMatchScore = score;
      if (request.includeContentLock && line.contentLock !== undefined) response.contentLock = line.contentLock ? 'true' : 'false';
      if (request.includeParentalControl && line.parentalControl !== undefined) response.parentalControl = line.parentalControl ? 'true' : 'false';
      return { msisdn, response };
    });
  }
}
