import { createHmac } from 'node:crypto';
import { CamaraCallDeps, CamaraCaller, camaraCaller, requireScope, subscriberOf } from '../camara/camara-call';
import { MissingIdentifierError } from '../camara/camara-errors';
import { BadRequestError, RateLimitedError, UpstreamUnavailableError } from '../errors/domain-errors';
import { Clock } from '../kernel/clock';
import { SCOPES } from '../oauth/access-scopes';
import { AccessGrant } from '../oauth/ports/access-tokens';
import { camaraApi } from '../partners/camara-apis';
import { Operation } from '../partners/operation';
import { Partner } from '../partners/partners';
import { CustomerRecords } from '../verification/ports/customer-records';
import { Metrics } from '../verification/ports/metrics';
import { QuotaCounter } from '../verification/ports/state-store';
import { VerificationService } from '../verification/verification-service';
import {
  IdDocumentMismatchError, IdDocumentRequiredError, InvalidParamCombinationError, InvalidTokenContextError,
} from './kyc-match-errors';
import { KycMatchResponse, MatchOptions, MatchSummary, matchAttributes } from './match-attributes';
import { parseMatchRequest } from './match-request';

/** The scope kyc-match.yaml's security section names. */
export const KYC_MATCH_SCOPE = SCOPES.kycMatch;

/** The registry word (permission, rate limit, metrics label) a match spends. */
export const KYC_MATCH_PARTNER_OPERATION: Operation = camaraApi('kyc-match').registryOperation;

export interface KycMatchOptions extends MatchOptions {
  /** KYC_MATCH_MAX_PER_NUMBER_PER_DAY: per partner, per number, per UTC day, fleet-wide. */
  maxPerNumberPerDay: number;
  /** KYC_MATCH_KEY_FILE's key: the counter's keys are HMAC-SHA256 of the day and number under it. */
  allowanceKey: Buffer;
}

export interface KycMatchDeps {
  verification: Pick<VerificationService, 'hlrFactsWithTenure'>;
  /** Subject, admission and audit: the shared CAMARA kit. */
  call: CamaraCallDeps;
  /** Undefined when no customer-records system is configured: every match is 503. */
  records: CustomerRecords | undefined;
  quotas: QuotaCounter;
  metrics: Pick<Metrics, 'rateLimited'>;
  clock: Clock;
  settings: KycMatchOptions;
}

export interface KycMatchAnswer {
  /** The normalised msisdn, for the request log and audit; never echoed to the caller. */
  msisdn: string;
  response: KycMatchResponse;
  summary: MatchSummary;
}

const DAY_MS = 86_400_000;

/**
 * The number the request is about: the token's, else the body's. Unlike SIM Swap, the yaml
 * accepts both when they agree and answers 403 INVALID_TOKEN_CONTEXT when they differ.
 */
function matchSubjectOf(tokenPhone: string | undefined, bodyPhone: string | undefined): string {
  if (tokenPhone !== undefined && bodyPhone !== undefined && tokenPhone !== bodyPhone) {
    throw new InvalidTokenContextError('phoneNumber is not consistent with the access token');
  }
  const phone = tokenPhone ?? bodyPhone;
  if (phone === undefined) throw new MissingIdentifierError('phoneNumber is required when the access token does not identify a phone number');
  return phone;
}

/**
 * CAMARA KYC Match 0.4.0 (CONTRACT §11) over the shared CAMARA kit. Checks in the order of the
 * yaml and §7: scope (403), body (400), identifier (403 INVALID_TOKEN_CONTEXT / 422) and number
 * plan (422); then, audited as `kyc_match`, the partner's permission and rate limit (403/429),
 * the per-number daily limit (429; 503 while it cannot be counted fleet-wide), the subscriber
 * (404), the identity record (503 when unreachable, the use given back), the idDocument gate
 * (403) and the comparison. The record lives in this call only: never cached, logged or returned.
 */
export class KycMatchService {
  private readonly call: CamaraCaller<'match'>;

  constructor(private readonly deps: KycMatchDeps) {
    this.call = camaraCaller(deps.call, 'kyc-match', { subject: matchSubjectOf });
  }

  async match(grant: AccessGrant, body: unknown, correlator: string): Promise<KycMatchAnswer> {
    requireScope(grant, [KYC_MATCH_SCOPE]);
    const parsed = parseMatchRequest(body);
    if (!parsed.ok) {
      const first = parsed.problems[0];
      const message = parsed.problems.map((p) => p.message).join('; ');
      throw first.code === 'INVALID_PARAM_COMBINATION' ? new InvalidParamCombinationError(message) : new BadRequestError(message);
    }
    return this.call({ grant, phoneNumber: parsed.phoneNumber, operation: 'match', correlator }, async (msisdn) => {
      const count = await this.countAgainstGuessing(grant.partner, msisdn);
      const record = await this.lookUp(msisdn).catch(async (err: unknown) => {
        // An upstream that could not answer taught the caller nothing: the use is given back.
        if (err instanceof UpstreamUnavailableError) await this.deps.quotas.giveBack?.(count.key, count.windowEndMs);
        throw err;
      });
      const outcome = matchAttributes(parsed.attributes, record ?? undefined, this.deps.settings);
      if (outcome.kind === 'refused') {
        throw outcome.reason === 'ID_DOCUMENT_REQUIRED'
          ? new IdDocumentRequiredError('The idDocument is required to perform the properties validation')
          : new IdDocumentMismatchError('The idDocument needs to match the one associated with the phone number');
      }
      return { msisdn, response: outcome.response, summary: outcome.summary };
    }, (a) => a.summary);
  }

  /**
   * One use of the partner's per-number allowance for a request about identity that is not a
   * match (KYC Age Verification: a threshold is a question about the birth date); the function
   * gives it back when the answer taught the caller nothing.
   */
  async takeAllowance(partner: Partner, msisdn: string): Promise<() => Promise<void>> {
    const count = await this.countAgainstGuessing(partner, msisdn);
    return async () => {
      await this.deps.quotas.giveBack?.(count.key, count.windowEndMs);
    };
  }

  /** The subscriber (404 when not one) and its identity record (503 when unreachable). */
  private async lookUp(msisdn: string) {
    subscriberOf(await this.deps.verification.hlrFactsWithTenure(msisdn), 'the phone number is not associated with a customer account');
    if (!this.deps.records) throw new UpstreamUnavailableError('customer records are not configured', 60);
    return this.deps.records.identity(msisdn);
  }

  /**
   * One of the partner's KYC_MATCH_MAX_PER_NUMBER_PER_DAY for this number today (UTC), taken
   * before the record is read: a refused request costs customer records nothing. The store key
   * holds an HMAC of the day and number under the operator's key, not the number: a plain
   * digest of a number is reversed by trying the numbering plan (all 11 in 3.5 s, issue 29).
   */
  private async countAgainstGuessing(partner: Partner, msisdn: string): Promise<{ key: string; windowEndMs: number }> {
    const now = this.deps.clock.nowMs();
    const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
    const day = new Date(dayStart).toISOString().slice(0, 10);
    const digest = createHmac('sha256', this.deps.settings.allowanceKey).update(`${day}:${msisdn}`).digest('base64url').slice(0, 22);
    const count = { key: `${partner.apiKey}:km:${day}:${digest}`, windowEndMs: dayStart + DAY_MS };
    const decision = await this.deps.quotas.take(count.key, this.deps.settings.maxPerNumberPerDay, count.windowEndMs);
    if (decision.allowed) return count;
    this.deps.metrics.rateLimited('kyc_match');
    throw new RateLimitedError('too many KYC Match requests for this phone number today', Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
  }
}
