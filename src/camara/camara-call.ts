import { msisdnOfPhone, subjectOf } from './camara-input';
import { InsufficientScopeError } from '../oauth/oauth-errors';
import { AuditRecorder } from '../audit/audit-recorder';
import { auditOperation } from '../audit/audit-operation';
import { AuditMatchSummary } from '../audit/ports/audit-trail';
import { NumberingPlan } from '../kernel/msisdn';
import { CamaraApiName, CamaraApiOperationName, camaraApi } from '../partners/camara-apis';
import { Operation } from '../partners/operation';
import { Partner } from '../partners/partners';
import { AccessGrant } from '../oauth/ports/access-tokens';

/** What every CAMARA operation needs around its own work: admission, audit, the numbering plan. */
export interface CamaraCallDeps {
  /** The partner's permission and rate limit (the verification service's `admit`). */
  admit(partner: Partner, operations: readonly Operation[]): Promise<void>;
  /** Every CAMARA verification about a well-formed number of ours leaves one audit record (CONTRACT §9). */
  audit: AuditRecorder;
  plan: NumberingPlan;
}

/** One CAMARA request as its operation sees it once the body is parsed. */
export interface CamaraCall {
  grant: AccessGrant;
  /** The body's phoneNumber, if it has one. */
  phoneNumber: string | undefined;
  /**
   * The CAMARA operation's own name, the last segment of its route (`check`, `retrieve-date`,
   * `match` …); the audit records it after the registry operation (`sim_swap.check`).
   */
  operation: string;
  /** The registry word whose permission and rate limit the operation spends. */
  partnerOperation: Operation;
  correlator: string;
  /**
   * How the number is chosen from the token's and the body's, where an API's yaml says other
   * than "never both" (KYC Match: both when they agree); default `subjectOf`.
   */
  subject?: (tokenPhone: string | undefined, bodyPhone: string | undefined) => string;
}

/** 403 unless the token holds one of the scopes the spec's security section names for the operation. */
export function requireScope(grant: AccessGrant, scopes: readonly string[]): void {
  if (!scopes.some((s) => grant.scopes.has(s))) {
    throw new InsufficientScopeError(`the access token lacks the scope ${scopes.join(' or ')}`, scopes);
  }
}

/**
 * The request's number as a normalised msisdn, from the three-legged token or the body, never
 * both (422 before anything is recorded: no number of ours was named); then, audited as one
 * verification (interface `camara`, the token's purpose), the partner's admission (403/429)
 * and the operation's own work.
 */
export async function camaraCall<T>(deps: CamaraCallDeps, call: CamaraCall, work: (msisdn: string) => Promise<T>,
  /** A KYC Match answer's summary for its audit record (names and counts, never values). */
  summary?: (value: T) => AuditMatchSummary): Promise<T> {
  const { grant } = call;
  const msisdn = msisdnOfPhone((call.subject ?? subjectOf)(grant.phoneNumber, call.phoneNumber), deps.plan);
  const context = { interface: 'camara' as const, correlator: call.correlator, ...(grant.purpose === undefined ? {} : { purpose: grant.purpose }) };
  const operation = auditOperation(call.partnerOperation, call.operation);
  return deps.audit.track({ partner: grant.partner, context, operation, msisdn }, async () => {
    await deps.admit(grant.partner, [call.partnerOperation]);
    return work(msisdn);
  }, () => false, summary);
}

/** A request to one API: which of its declared operations answers; the registry operation is the API's. */
export type ApiCall<Op extends string> = Pick<CamaraCall, 'grant' | 'phoneNumber' | 'correlator'> & { operation: Op };

/** camaraCall with the kit and one API's registry operation bound. */
export type CamaraCaller<Op extends string> = <T>(call: ApiCall<Op>, work: (msisdn: string) => Promise<T>,
  summary?: (value: T) => AuditMatchSummary) => Promise<T>;

/**
 * One API's camaraCall: the kit, the registry operation its declaration names (the permission,
 * rate limit and audit prefix every operation of the API spends) and its subject rule bound once,
 * so the service names only the operation that answers, one its declaration lists.
 */
export function camaraCaller<Api extends CamaraApiName>(deps: CamaraCallDeps, api: Api,
  options: Pick<CamaraCall, 'subject'> = {}): CamaraCaller<CamaraApiOperationName<Api>> {
  const partnerOperation = camaraApi(api).registryOperation;
  return (call, work, summary) => camaraCall(deps, { ...call, partnerOperation, ...options }, work, summary);
}

/** Who is a subscriber is decided once, in the verification kit, for every API (CONTRACT §7). */
export { subscriberOf } from '../verification/subscriber-facts';
