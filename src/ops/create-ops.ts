import { Registry } from 'prom-client';
import { ServerSettings } from '../config/server-settings';
import { VerificationSettings } from '../config/verification-settings';
import { Routes } from '../http/routes';
import { MsisdnNormaliser } from '../kernel/msisdn';
import { StoreMode } from '../verification/ports/state-store';
import { eventsRoutes } from '../verification/swap-events-routes';
import { VerificationService } from '../verification/verification-service';
import { opsRoutes } from './ops-routes';

export interface OpsDeps {
  registry: Registry;
  storeMode(): StoreMode;
  upstreams(): Record<string, string>;
  auditMode(): string;
  registryState(): string;
  /** SIM-management's swap events: the cache to evict, the subscriptions to notify. */
  events: {
    service: VerificationService;
    normalise: MsisdnNormaliser;
    subscriptions?: { onSwap(msisdn: string, swapId?: string): Promise<number> };
  };
}

export interface Ops {
  /** Probes, /metrics and /internal/events/*: on ADMIN_PORT when set, else on the partners' port. */
  adminRoutes: Routes;
  /** From now on /readyz answers 503 shutting_down; the service still serves. */
  beginShutdown: () => void;
}

/** The operator's side: liveness, readiness, metrics, and the SIM-management events route. */
export function createOps(deps: OpsDeps, config: Pick<VerificationSettings, 'EVENTS_TOKEN'> & Pick<ServerSettings, 'BODY_LIMIT_BYTES'>): Ops {
  let shuttingDown = false;
  const { events, ...probes } = deps;
  return {
    adminRoutes: [
      opsRoutes({ ...probes, isShuttingDown: () => shuttingDown }),
      eventsRoutes({ ...events, token: config.EVENTS_TOKEN, bodyLimitBytes: config.BODY_LIMIT_BYTES }),
    ],
    beginShutdown: () => { shuttingDown = true; },
  };
}
