import { CamaraApiConfig, CamaraApiDeps, camaraGateOf } from '../camara/camara-api-deps';
import { CamaraApiHandlers, camaraApiRoutes } from '../camara/camara-api-routes';
import { Config } from '../config/config';
import { createOffsetDateTimeFormatter } from '../kernel/offset-date-time';
import { DeviceSwapService } from './device-swap-service';

export const DEVICE_SWAP_ROOT = '/device-swap/v1';

/** CAMARA Device Swap 1.0.0 (CONTRACT §11): POST /device-swap/v1/retrieve-date and /check. */
export function createDeviceSwapApi(deps: CamaraApiDeps, config: CamaraApiConfig & Pick<Config, 'DEVICE_SWAP_MONITORED_DAYS'>): CamaraApiHandlers {
  const service = new DeviceSwapService({
    gate: camaraGateOf(deps, config),
    hlrFacts: (msisdn) => deps.verification.hlrFactsComplete(msisdn),
    clock: deps.clock,
    ...(config.DEVICE_SWAP_MONITORED_DAYS === undefined ? {} : { monitoredDays: config.DEVICE_SWAP_MONITORED_DAYS }),
  });
  const formatDate = createOffsetDateTimeFormatter(config.TIMEZONE);
  return camaraApiRoutes(DEVICE_SWAP_ROOT, {
    '/retrieve-date': {
      operation: 'device_swap',
      answer: async (grant, body, correlator) => {
        const r = await service.retrieveDate(grant, body, correlator);
        // RFC 3339 with the TIMEZONE offset, as SIM Swap's latestSimChange (CONTRACT §7).
        const out: Record<string, unknown> = { latestDeviceChange: r.latestDeviceChangeMs === null ? null : formatDate(new Date(r.latestDeviceChangeMs)) };
        if (r.monitoredPeriodDays !== undefined) out.monitoredPeriod = r.monitoredPeriodDays;
        return { msisdn: r.msisdn, body: out };
      },
    },
    '/check': {
      operation: 'device_swap',
      answer: async (grant, body, correlator) => {
        const r = await service.check(grant, body, correlator);
        return { msisdn: r.msisdn, body: { swapped: r.swapped } };
      },
    },
  }, { tokens: deps.tokens, bodyLimitBytes: config.BODY_LIMIT_BYTES, logger: deps.logger });
}
