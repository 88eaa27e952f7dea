import { DeviceSwapService } from './device-swap-service';
import { CamaraApi, CamaraApiConfig, CamaraApiDeps, camaraKit } from '../camara/camara-api-kit';
import { camaraRouter } from '../camara/camara-router';
import { changeDateBody } from '../camara/change-date';
import { Config } from '../config/config';
import { createOffsetDateTimeFormatter } from '../kernel/offset-date-time';
import { camaraApi } from '../partners/camara-apis';

export const DEVICE_SWAP_ROOT = camaraApi('device-swap').root;

export type DeviceSwapConfig = CamaraApiConfig & Pick<Config, 'TIMEZONE' | 'DEVICE_SWAP_MONITORED_DAYS'>;

export type DeviceSwapApi = CamaraApi<DeviceSwapService>;

/** CAMARA Device Swap 1.0.0 (CONTRACT §11): POST retrieve-date and check under /device-swap/v1. */
export function createDeviceSwapApi(deps: CamaraApiDeps, config: DeviceSwapConfig): DeviceSwapApi {
  const kit = camaraKit(deps, config);
  const service = new DeviceSwapService({
    call: kit.call,
    hlrFacts: (msisdn) => deps.verification.hlrFactsComplete(msisdn),
    clock: deps.clock,
    ...(config.DEVICE_SWAP_MONITORED_DAYS === undefined ? {} : { monitoredDays: config.DEVICE_SWAP_MONITORED_DAYS }),
  });
  // RFC 3339 with the TIMEZONE offset, as SIM Swap's latestSimChange (CONTRACT §7).
  const formatDate = createOffsetDateTimeFormatter(config.TIMEZONE);
  const routes = camaraRouter(kit.routes, DEVICE_SWAP_ROOT, {
    'retrieve-date': async (grant, body, correlator) => {
      const r = await service.retrieveDate(grant, body, correlator);
      return { msisdn: r.msisdn, body: changeDateBody('latestDeviceChange', { latestMs: r.latestDeviceChangeMs, monitoredPeriodDays: r.monitoredPeriodDays }, formatDate) };
    },
    check: async (grant, body, correlator) => {
      const r = await service.check(grant, body, correlator);
      return { msisdn: r.msisdn, body: { swapped: r.swapped } };
    },
  });
  return { routes, service };
}
