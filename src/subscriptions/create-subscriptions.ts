import { Routes } from '../http/routes';
import { ServerSettings } from '../config/server-settings';
import { StateSettings } from '../config/state-settings';
import { SubscriptionSettings } from '../config/subscription-settings';
import { VerificationSettings } from '../config/verification-settings';
import { Clock } from '../kernel/clock';
import { AccessTokenVerifier } from '../oauth/ports/access-tokens';
import { Logger } from '../observability/logger';
import { PartnerRegistry } from '../partners/partners';
import { VerificationService } from '../verification/verification-service';
import { createSubscriptionAdapters } from './delivery/create-subscription-adapters';
import { SubscriptionService } from './domain/subscription-service';
import { WebhookMetrics } from './ports/webhook-metrics';
import { subscriptionRoutes } from './subscription-routes';

export interface SubscriptionsDeps {
  clock: Clock;
  logger: Logger;
  metrics: WebhookMetrics;
  partners: PartnerRegistry;
  /** Admits a partner's request: subscriptions spend the sim_swap operation's permission and rate limit. */
  verification: Pick<VerificationService, 'admit'>;
  tokens: AccessTokenVerifier;
}

export interface Subscriptions {
  service: SubscriptionService;
  routes: Routes;
  close(): Promise<void>;
}

type Settings = SubscriptionSettings & StateSettings & Pick<VerificationSettings, 'COUNTRY_CODE' | 'NSN_LENGTH'> & Pick<ServerSettings, 'BODY_LIMIT_BYTES'>;

/** SIM Swap Subscriptions (CONTRACT §8): the routes, the webhook deliveries, the expiry sweep. */
export function createSubscriptions(deps: SubscriptionsDeps, config: Settings): Subscriptions {
  const { clock, logger } = deps;
  const adapters = createSubscriptionAdapters(config, { logger, metrics: deps.metrics, partners: deps.partners });
  const service = new SubscriptionService({
    store: adapters.store, delivery: adapters.delivery, sinks: adapters.sinks, clock,
    plan: { countryCode: config.COUNTRY_CODE, nsnLength: config.NSN_LENGTH },
    // Subscriptions are the sim_swap operation's: the same permission and rate limit as its lookups.
    admit: (partner) => deps.verification.admit(partner, ['sim_swap']),
    maxPerPartner: config.SUBSCRIPTIONS_MAX_PER_PARTNER,
  });
  const sweeper = setInterval(() => {
    service.sweepExpired().catch((err: unknown) => logger.warn({ err }, 'subscription expiry sweep failed; next sweep retries'));
  }, config.SUBSCRIPTION_SWEEP_MS);
  sweeper.unref();
  return {
    service,
    routes: subscriptionRoutes({ subscriptions: service, tokens: deps.tokens, bodyLimitBytes: config.BODY_LIMIT_BYTES, logger }),
    close: async () => {
      clearInterval(sweeper);
      await adapters.close();
    },
  };
}
