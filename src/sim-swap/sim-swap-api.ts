import { SimSwapService } from './sim-swap-service';
import { CamaraApi, CamaraApiConfig, CamaraApiDeps, camaraKit } from '../camara/camara-api-kit';
import { camaraRouter } from '../camara/camara-router';
import { changeDateBody } from '../camara/change-date';
import { Config } from '../config/config';
import { createOffsetDateTimeFormatter } from '../kernel/offset-date-time';
import { camaraApi } from '../partners/camara-apis';

export const SIM_SWAP_ROOT = camaraApi('sim-swap').root;

export type SimSwapConfig = CamaraApiConfig & Pick<Config, 'TIMEZONE' | 'SIM_SWAP_MONITORED_DAYS'>;

export type SimSwapApi = CamaraApi<SimSwapService>;

/** SIM Swap (CONTRACT §7): POST retrieve-date and check under /sim-swap/v2. */
export function createSimSwapApi(deps: CamaraApiDeps, config: SimSwapConfig): SimSwapApi {
  const kit = camaraKit(deps, config);
  const service = new SimSwapService({
    verification: deps.verification, clock: deps.clock, call: kit.call,
    ...(config.SIM_SWAP_MONITORED_DAYS === undefined ? {} : { monitoredDays: config.SIM_SWAP_MONITORED_DAYS }),
  });
  // Dates leave in the operator's zone with its offset (CONTRACT §7), never as `Z`.
  const formatDate = createOffsetDateTimeFormatter(config.TIMEZONE);
  const routes = camaraRouter(kit.routes, SIM_SWAP_ROOT, {
    'retrieve-date': async (grant, body, correlator) => {
      const r = await service.retrieveDate(grant, body, correlator);
      return { msisdn: r.msisdn, body: changeDateBody('latestSimChange', { latestMs: r.latestSimChangeMs, monitoredPeriodDays: r.monitoredPeriodDays }, formatDate) };
    },
    check: async (grant, body, correlator) => {
      const r = await service.check(grant, body, correlator);
      return { msisdn: r.msisdn, body: { swapped: r.swapped } };
    },
  });
  return { routes, service };
}
