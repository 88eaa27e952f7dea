import { createHash } from 'node:crypto';
import { AuditRecorder } from '../audit/audit-recorder';
import { MissingIdentifierError } from '../camara/camara-errors';
import { msisdnOfPhone } from '../camara/camara-input';
import { BadRequestError, NotSubscriberError, RateLimitedError, UpstreamUnavailableError } from '../errors/domain-errors';
import { Clock } from '../kernel/clock';
import { InsufficientScopeError } from '../oauth/oauth-errors';
import { AccessGrant } from '../oauth/ports/access-tokens';
import { Partner } from '../partners/partners';
import { NumberingPlan } from '../verification/msisdn';
import { Metrics } from '../verification/ports/metrics';
import { QuotaCounter } from '../verification/ports/state-store';
import { VerificationService } from '../verification/verification-service';
import {
  IdDocumentMismatchError, IdDocumentRequiredError, InvalidParamCombinationError, InvalidTokenContextError,
} from './kyc-match-errors';
import { KycMatchResponse, MatchOptions, MatchSummary, matchAttributes } from './match-attributes';
import { parseMatchRequest } from './match-request';
import { CustomerRecords } from './ports/customer-records';

/** The scope kyc-match.yaml's security section names. */
export const KYC_MATCH_SCOPE = 'kyc-match:match';

export interface KycMatchSettings extends MatchOptions {
  plan: NumberingPlan;
  /** KYC_MATCH_MAX_PER_NUMBER_PER_DAY: per partner, per number, per UTC day, fleet-wide. */
  maxPerNumberPerDay: number;
}

export interface KycMatchDeps {
  verification: VerificationService;
  /** Undefined when no customer-records system is configured: every match is 503. */
  records: CustomerRecords | undefined;
  quotas: QuotaCounter;
  audit: AuditRecorder;
  metrics: Pick<Metrics, 'rateLimited'>;
  clock: Clock;
  settings: KycMatchSettings;
}

export interface KycMatchAnswer {
  /** The normalised msisdn, for the request log and audit; never echoed to the caller. */
  msisdn: string;
  response: KycMatchResponse;
  summary: MatchSummary;
}

const DAY_MS = 86_400_000;

/**
 * CAMARA KYC Match 0.4.0 (CONTRACT §11). Checks in the order of the yaml and §7: scope (403),
 * body (400), identifier (403 INVALID_TOKEN_CONTEXT / 422) and number plan (422); then, audited
 * as `kyc_match`, the partner's permission and rate limit (403/429), the per-number daily limit
 * (429), the subscriber (404), the identity record (503 when unreachable), the idDocument gate
 * (403) and the comparison. The record lives in this call only: never cached, logged or returned.
 */
export class KycMatchService {
  constructor(private readonly deps: KycMatchDeps) {}

  async match(grant: AccessGrant, body: unknown, correlator: string): Promise<KycMatchAnswer> {
    if (!grant.scopes.has(KYC_MATCH_SCOPE)) {
      throw new InsufficientScopeError(`the access token lacks the scope ${KYC_MATCH_SCOPE}`, [KYC_MATCH_SCOPE]);
    }
    const parsed = parseMatchRequest(body);
    if (!parsed.ok) {
      const first = parsed.problems[0];
      const message = parsed.problems.map((p) => p.message).join('; ');
      throw first.code === 'INVALID_PARAM_COMBINATION' ? new InvalidParamCombinationError(message) : new BadRequestError(message);
    }
    const msisdn = msisdnOfPhone(this.subjectOf(grant.phoneNumber, parsed.phoneNumber), this.deps.settings.plan);
    const context = { interface: 'camara' as const, correlator, ...(grant.purpose === undefined ? {} : { purpose: grant.purpose }) };
    return this.deps.audit.track({ partner: grant.partner, context, operation: 'kyc_match', msisdn }, async () => {
      await this.deps.verification.admit(grant.partner, ['kyc_match']);
      await this.countAgainstGuessing(grant.partner, msisdn);
      const line = await this.deps.verification.hlrFactsWithTenure(msisdn);
      if (line === null || line.status === 'terminated') throw new NotSubscriberError('the phone number is not associated with a customer account');
      if (!this.deps.records) throw new UpstreamUnavailableError('customer records are not configured', 60);
      const record = await this.deps.records.identity(msisdn);
      const outcome = matchAttributes(parsed.attributes, record ?? undefined, this.deps.settings);
      if (outcome.kind === 'refused') {
        throw outcome.reason === 'ID_DOCUMENT_REQUIRED'
          ? new IdDocumentRequiredError('The idDocument is required to perform the properties validation')
          : new IdDocumentMismatchError('The idDocument needs to match the one associated with the phone number');
      }
      return { msisdn, response: outcome.response, summary: outcome.summary };
    }, () => false, (a) => a.summary);
  }

  /**
   * The number the request is about: the token's, else the body's. Unlike SIM Swap, the yaml
   * accepts both when they agree and answers 403 INVALID_TOKEN_CONTEXT when they differ.
   */
  private subjectOf(tokenPhone: string | undefined, bodyPhone: string | undefined): string {
    if (tokenPhone !== undefined && bodyPhone !== undefined && tokenPhone !== bodyPhone) {
      throw new InvalidTokenContextError('phoneNumber is not consistent with the access token');
    }
    const phone = tokenPhone ?? bodyPhone;
    if (phone === undefined) throw new MissingIdentifierError('phoneNumber is required when the access token does not identify a phone number');
    return phone;
  }

  /**
   * One of the partner's KYC_MATCH_MAX_PER_NUMBER_PER_DAY for this number today (UTC), taken
   * before the record is read: a refused request costs customer records nothing. The store key
   * holds a digest of the number, not the number.
   */
  private async countAgainstGuessing(partner: Partner, msisdn: string): Promise<void> {
    const now = this.deps.clock.nowMs();
    const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
    const day = new Date(dayStart).toISOString().slice(0, 10);
    const digest = createHash('sha256').update(msisdn).digest('base64url').slice(0, 22);
    const decision = await this.deps.quotas.take(`${partner.apiKey}:km:${day}:${digest}`, this.deps.settings.maxPerNumberPerDay, dayStart + DAY_MS);
    if (decision.allowed) return;
    this.deps.metrics.rateLimited('kyc_match');
    throw new RateLimitedError('too many KYC Match requests for this phone number today', Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
  }
}
