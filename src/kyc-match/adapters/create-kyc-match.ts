import { AuditRecorder } from '../../audit/audit-recorder';
import { Config } from '../../config/config';
import { Clock } from '../../kernel/clock';
import { Logger } from '../../observability/logger';
import { BreakerState, Metrics } from '../../verification/ports/metrics';
import { StateStore } from '../../verification/ports/state-store';
import { BreakerOptions } from '../../verification/upstream/breaker-options';
import { CrmHttpClient } from '../../verification/upstream/crm-http-client';
import { HttpUpstreamOptions } from '../../verification/upstream/http-upstream';
import { VerificationService } from '../../verification/verification-service';
import { KycMatchService } from '../kyc-match-service';

export interface KycMatchParts {
  service: KycMatchService;
  /** The customer-records breaker's state; undefined when no system is configured. */
  crmState(): BreakerState | undefined;
  shutdown(): void;
}

export interface KycMatchFactoryDeps {
  /** CRM_URL, or the in-process simulator's; undefined: none (every match answers 503). */
  crmUrl: string | undefined;
  verification: VerificationService;
  store: StateStore;
  audit: AuditRecorder;
  metrics: Metrics;
  clock: Clock;
  logger: Logger;
  breaker: BreakerOptions;
  onBreakerChange: HttpUpstreamOptions<unknown>['onBreakerChange'];
}

/** KYC Match (CONTRACT §11): the customer-records client with its own deadline and breaker, and the service. */
export function createKycMatch(config: Config, deps: KycMatchFactoryDeps): KycMatchParts {
  const crm = deps.crmUrl === undefined ? undefined : new CrmHttpClient({
    baseUrl: deps.crmUrl, timeoutMs: config.CRM_TIMEOUT_MS, maxSockets: config.UPSTREAM_MAX_SOCKETS,
    breaker: deps.breaker, metrics: deps.metrics, logger: deps.logger,
    ...(deps.onBreakerChange ? { onBreakerChange: deps.onBreakerChange } : {}),
  });
  if (!crm) deps.logger.warn('no CRM_URL: KYC Match answers 503 (customer records not configured)');
  const service = new KycMatchService({
    verification: deps.verification, records: crm, quotas: deps.store.quotas, audit: deps.audit,
    metrics: deps.metrics, clock: deps.clock,
    settings: {
      plan: { countryCode: config.COUNTRY_CODE, nsnLength: config.NSN_LENGTH },
      scores: config.KYC_MATCH_SCORES,
      idDocumentRequired: config.KYC_MATCH_ID_DOCUMENT_REQUIRED,
      maxPerNumberPerDay: config.KYC_MATCH_MAX_PER_NUMBER_PER_DAY,
    },
  });
  return { service, crmState: () => crm?.upstream.state(), shutdown: () => crm?.upstream.shutdown() };
}
