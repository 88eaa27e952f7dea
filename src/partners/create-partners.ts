import { PartnerSettings } from '../config/partner-settings';
import { Clock } from '../kernel/clock';
import { AuthFailureThrottle } from '../oauth/auth-failure-throttle';
import { Logger } from '../observability/logger';
import { Metrics } from '../verification/ports/metrics';
import { defaultPartnersPath } from '../kernel/repo-paths';
import { Authenticator } from './authenticator';
import { FilePartnerRegistry } from './file-partner-registry';

export interface Partners {
  registry: FilePartnerRegistry;
  /** Checks the legacy REST and GraphQL signatures. */
  authenticator: Authenticator;
  /** Failed-secret counting shared by the signatures and the OAuth token endpoint. */
  throttle: AuthFailureThrottle;
  /** Re-reads PARTNERS_FILE; keeps the registry in force when the file is bad. */
  reload: () => void;
  close(): void;
}

/** The partner registry and the signed-request checks. */
export function createPartners(deps: { clock: Clock; logger: Logger; metrics: Metrics }, config: PartnerSettings): Partners {
  const { clock, logger, metrics } = deps;
  const registry = new FilePartnerRegistry(config.PARTNERS_FILE ?? defaultPartnersPath());
  const throttle = new AuthFailureThrottle({
    clock, pairLimit: config.AUTH_FAIL_LIMIT, addressLimit: config.AUTH_FAIL_ADDRESS_LIMIT, windowS: config.AUTH_FAIL_WINDOW_S,
  });
  const authenticator = new Authenticator({ registry, clock, maxSkewS: config.SIG_MAX_SKEW_S, metrics, throttle });
  authenticator.tick();
  const ticker = setInterval(() => authenticator.tick(), 1000);
  ticker.unref();
  return {
    registry, authenticator, throttle,
    reload: () => {
      try {
        const n = registry.reload();
        logger.info({ partners: n }, 'partners reloaded');
      } catch (err) {
        logger.error({ err: (err as Error).message }, 'partners reload failed; keeping the registry in force');
      }
    },
    close: () => clearInterval(ticker),
  };
}
