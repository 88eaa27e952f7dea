import { NumberRecyclingService } from './number-recycling-service';
import { CamaraApi, CamaraApiConfig, CamaraApiDeps, camaraKit } from '../camara/camara-api-kit';
import { camaraRouter } from '../camara/camara-router';
import { Config } from '../config/config';
import { createZonedCalendar } from '../kernel/zoned-date';
import { camaraApi } from '../partners/camara-apis';

export const NUMBER_RECYCLING_ROOT = camaraApi('number-recycling').root;

export type NumberRecyclingConfig = CamaraApiConfig & Pick<Config, 'TIMEZONE'>;

export type NumberRecyclingApi = CamaraApi<NumberRecyclingService>;

/** CAMARA Number Recycling 0.2.0 (CONTRACT §11): POST /number-recycling/v0.2/check. */
export function createNumberRecyclingApi(deps: CamaraApiDeps, config: NumberRecyclingConfig): NumberRecyclingApi {
  const kit = camaraKit(deps, config);
  const service = new NumberRecyclingService({
    call: kit.call,
    hlrFacts: (msisdn) => deps.verification.hlrFactsComplete(msisdn),
    clock: deps.clock,
    // TIMEZONE's calendar: where specifiedDate starts, and which day is today.
    calendar: createZonedCalendar(config.TIMEZONE),
  });
  const routes = camaraRouter(kit.routes, NUMBER_RECYCLING_ROOT, {
    check: async (grant, body, correlator) => {
      const r = await service.check(grant, body, correlator);
      return { msisdn: r.msisdn, body: { phoneNumberRecycled: r.phoneNumberRecycled } };
    },
  });
  return { routes, service };
}
