import { CamaraApiConfig, CamaraApiDeps, camaraGateOf } from '../camara/camara-api-deps';
import { CamaraApiHandlers, camaraApiRoutes } from '../camara/camara-api-routes';
import { createZonedCalendar } from '../kernel/zoned-date';
import { NumberRecyclingService } from './number-recycling-service';

export const NUMBER_RECYCLING_ROOT = '/number-recycling/v0.2';

/** CAMARA Number Recycling 0.2.0 (CONTRACT §11): POST /number-recycling/v0.2/check. */
export function createNumberRecyclingApi(deps: CamaraApiDeps, config: CamaraApiConfig): CamaraApiHandlers {
  const service = new NumberRecyclingService({
    gate: camaraGateOf(deps, config),
    hlrFacts: (msisdn) => deps.verification.hlrFactsComplete(msisdn),
    clock: deps.clock,
    calendar: createZonedCalendar(config.TIMEZONE),
  });
  return camaraApiRoutes(NUMBER_RECYCLING_ROOT, {
    '/check': {
      operation: 'number_recycling',
      answer: async (grant, body, correlator) => {
        const r = await service.check(grant, body, correlator);
        return { msisdn: r.msisdn, body: { phoneNumberRecycled: r.phoneNumberRecycled } };
      },
    },
  }, { tokens: deps.tokens, bodyLimitBytes: config.BODY_LIMIT_BYTES, logger: deps.logger });
}
