import { OutOfRangeError } from '../camara/camara-errors';
import { CamaraCallDeps, CamaraCaller, camaraCaller, requireScope, subscriberOf } from '../camara/camara-call';
import { parseTenureBody } from '../camara/camara-input';
import { Clock } from '../kernel/clock';
import { ZonedCalendar } from '../kernel/zoned-date';
import { SCOPES } from '../oauth/access-scopes';
import { AccessGrant } from '../oauth/ports/access-tokens';
import { camaraApi } from '../partners/camara-apis';
import { Operation } from '../partners/operation';
import { ContractType, contractTypeOf } from '../verification/subscriber-facts';
import { VerificationService } from '../verification/verification-service';

/** Scopes that allow check-tenure, as kyc-tenure.yaml's security section names them. */
export const KYC_TENURE_SCOPES: readonly string[] = [SCOPES.kycTenureCheck];

/** The registry word (permission, rate limit, metrics label) check-tenure spends. */
export const KYC_TENURE_PARTNER_OPERATION: Operation = camaraApi('kyc-tenure').registryOperation;

export type { ContractType };

export interface TenureCheck {
  /** The normalised msisdn the answer is about (request log and audit), never echoed to the caller. */
  msisdn: string;
  tenureDateCheck: boolean;
  contractType: ContractType;
}

export interface KycTenureServiceDeps {
  verification: VerificationService;
  clock: Clock;
  /** Subject, admission and audit: the shared CAMARA kit. */
  call: CamaraCallDeps;
  /** Calendar in TIMEZONE: where tenureDate starts, and which day is today. */
  calendar: ZonedCalendar;
}

/**
 * KYC Tenure 0.2.0 over the one verification service. The checks run in the order the spec
 * implies: scope (403), body (400), a future tenureDate (400), identifier and number plan (422),
 * partner admission (403/429), subscriber (404). From partner admission on, the outcome is audited.
 */
export class KycTenureService {
  private readonly call: CamaraCaller<'check-tenure'>;

  constructor(private readonly deps: KycTenureServiceDeps) {
    this.call = camaraCaller(deps.call, 'kyc-tenure');
  }

  async checkTenure(grant: AccessGrant, body: unknown, correlator: string): Promise<TenureCheck> {
    requireScope(grant, KYC_TENURE_SCOPES);
    const input = parseTenureBody(body);
    const { calendar, clock } = this.deps;
    if (input.tenureDate > calendar.dateAt(clock.nowMs())) throw new OutOfRangeError('tenureDate must not be in the future');
    return this.call({ grant, phoneNumber: input.phoneNumber, operation: 'check-tenure', correlator }, async (msisdn) => {
      const rec = subscriberOf(await this.deps.verification.hlrFactsWithTenure(msisdn));
      const since = rec.activatedAtMs ?? null;
      return {
        msisdn,
        tenureDateCheck: since !== null && since <= calendar.startOfDayMs(input.tenureDate),
        contractType: contractTypeOf(rec.paymentType),
      };
    });
  }
}
