import { AuditRecorder } from '../audit/audit-recorder';
import { InsufficientScopeError } from '../oauth/oauth-errors';
import { AccessGrant } from '../oauth/ports/access-tokens';
import { NumberingPlan } from '../verification/msisdn';
import { Operation } from '../partners/operation';
import { Partner } from '../partners/partners';
import { msisdnOfPhone, subjectOf } from './camara-input';

export interface CamaraGateDeps {
  /** The verification core's admission: the partner's permission for the operation (403), its rate limit (429). */
  admit(partner: Partner, operations: readonly Operation[]): Promise<void>;
  /** Every CAMARA answer about a well-formed number of ours leaves one audit record (CONTRACT §9). */
  audit: AuditRecorder;
  plan: NumberingPlan;
}

/**
 * The checks every CAMARA operation makes, in the order the specs imply (as CamaraService does
 * for SIM Swap and KYC Tenure): scope (403), then the caller's body (400, by the API), then the
 * identifier and number plan (422), then, audited as one verification, the partner's
 * admission (403/429) and the work, whose not-a-subscriber answer is 404.
 */
export class CamaraGate {
  constructor(private readonly deps: CamaraGateDeps) {}

  /** 403 PERMISSION_DENIED unless the token holds one of the scopes (any one suffices, as the specs' security sections say). */
  requireScope(grant: AccessGrant, scopes: readonly string[]): void {
    if (!scopes.some((s) => grant.scopes.has(s))) {
      throw new InsufficientScopeError(`the access token lacks the scope ${scopes.join(' or ')}`, scopes);
    }
  }

  /**
   * The request's number as a normalised msisdn (422 before anything is recorded: no number of
   * ours was named), then the partner's admission and the work, recorded under `operation`.
   */
  async tracked<T>(grant: AccessGrant, bodyPhone: string | undefined, operation: Operation, correlator: string,
    work: (msisdn: string) => Promise<T>): Promise<T> {
    const msisdn = msisdnOfPhone(subjectOf(grant.phoneNumber, bodyPhone), this.deps.plan);
    const context = { interface: 'camara' as const, correlator, ...(grant.purpose === undefined ? {} : { purpose: grant.purpose }) };
    return this.deps.audit.track({ partner: grant.partner, context, operation, msisdn }, async () => {
      await this.deps.admit(grant.partner, [operation]);
      return work(msisdn);
    });
  }
}
