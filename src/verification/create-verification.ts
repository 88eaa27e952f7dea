import { StateSettings } from '../config/state-settings';
import { VerificationSettings } from '../config/verification-settings';
import { Clock } from '../kernel/clock';
import { OffsetDateTimeFormatter, createOffsetDateTimeFormatter } from '../kernel/offset-date-time';
import { Logger } from '../observability/logger';
import { MsisdnNormaliser, createMsisdnNormaliser } from '../kernel/msisdn';
import { Metrics } from './ports/metrics';
import { StateStore } from './ports/state-store';
import { HlrClient, SimClient } from './ports/upstreams';
import { VerificationService } from './verification-service';

export interface VerificationDeps {
  hlr: HlrClient;
  sim: SimClient;
  store: StateStore;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
}

export interface Verification {
  service: VerificationService;
  /** The numbering plan's msisdn normaliser every interface parses numbers with. */
  normalise: MsisdnNormaliser;
  /** Renders sim_swapped_dt in TIMEZONE. */
  formatDate: OffsetDateTimeFormatter;
}

/** The verification service over the upstreams and the state store; every interface answers through it. */
export function createVerification(deps: VerificationDeps, config: VerificationSettings & Pick<StateSettings, 'REDIS_WAIT_REPLICAS'>): Verification {
  const { logger, ...parts } = deps;
  const service = new VerificationService({
    ...parts,
    settings: {
      kycCacheTtlS: config.KYC_CACHE_TTL_S,
      kycStaleS: config.KYC_STALE_S,
      simSwapCacheTtlS: config.SIM_SWAP_CACHE_TTL_S,
      negativeCacheTtlS: config.NEGATIVE_CACHE_TTL_S,
      simSwapMaxAgeHours: config.SIM_SWAP_MAX_AGE_HOURS,
      txnTtlS: config.TXN_TTL_S,
      txnInFlightTtlS: config.TXN_IN_FLIGHT_TTL_S,
      txnRecordBeforeAnswer: config.REDIS_WAIT_REPLICAS > 0,
    },
    onStoreError: (err) => logger.warn({ err }, 'state store error; answering without it'),
  });
  return {
    service,
    normalise: createMsisdnNormaliser({ countryCode: config.COUNTRY_CODE, nsnLength: config.NSN_LENGTH }),
    formatDate: createOffsetDateTimeFormatter(config.TIMEZONE),
  };
}
