import { loadAllowanceKey } from './allowance-key';
import { KycMatchService } from './kyc-match-service';
import { CamaraApi, CamaraApiConfig, CamaraApiDeps, camaraKit } from '../camara/camara-api-kit';
import { camaraRouter } from '../camara/camara-router';
import { KycMatchSettings } from '../config/kyc-match-settings';
import { CustomerRecords } from '../verification/ports/customer-records';
import { Metrics } from '../verification/ports/metrics';
import { QuotaCounter, StoreMode } from '../verification/ports/state-store';
import { camaraApi } from '../partners/camara-apis';

export const KYC_MATCH_ROOT = camaraApi('kyc-match').root;

export type KycMatchConfig = CamaraApiConfig & KycMatchSettings;

export interface KycMatchApiDeps extends CamaraApiDeps {
  /** Customer records (createUpstreams' crm); undefined when none is configured: every match is 503. */
  records: CustomerRecords | undefined;
  /** The state store's quota counter: the per-number daily limit, fleet-wide on Redis (503 while it cannot be). */
  quotas: QuotaCounter;
  /** Where the store keeps state: a key generated at start is only enough in memory. */
  storeMode: () => StoreMode;
  metrics: Pick<Metrics, 'rateLimited'>;
}

export type KycMatchApi = CamaraApi<KycMatchService>;

/**
 * KYC Match (CONTRACT §11): POST match under /kyc-match/v0.4. The answer holds only what the
 * comparison produced (`<attr>Match`, `<attr>MatchScore`), never a value of the request or the record.
 */
export function createKycMatchApi(deps: KycMatchApiDeps, config: KycMatchConfig): KycMatchApi {
  const kit = camaraKit(deps, config);
  if (!deps.records) deps.logger.warn('no CRM_URL: KYC Match answers 503 (customer records not configured)');
  const sharedStore = deps.storeMode() !== 'memory';
  if (!config.KYC_MATCH_KEY_FILE && sharedStore) {
    deps.logger.warn('KYC_MATCH_KEY_FILE unset: the allowance\'s Redis keys are HMACs under the public development key, as reversible as plain digests');
  }
  const service = new KycMatchService({
    verification: deps.verification, call: kit.call, records: deps.records, quotas: deps.quotas, metrics: deps.metrics, clock: deps.clock,
    settings: {
      scores: config.KYC_MATCH_SCORES,
      idDocumentRequired: config.KYC_MATCH_ID_DOCUMENT_REQUIRED,
      maxPerNumberPerDay: config.KYC_MATCH_MAX_PER_NUMBER_PER_DAY,
      allowanceKey: loadAllowanceKey(config.KYC_MATCH_KEY_FILE, sharedStore),
    },
  });
  const routes = camaraRouter(kit.routes, KYC_MATCH_ROOT, {
    match: async (grant, body, correlator) => {
      const r = await service.match(grant, body, correlator);
      return { msisdn: r.msisdn, body: r.response };
    },
  });
  return { routes, service };
}
