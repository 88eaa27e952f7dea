import { CamaraApiConfig, CamaraApiDeps, camaraGateOf } from '../camara/camara-api-deps';
import { CamaraApiHandlers, camaraApiRoutes } from '../camara/camara-api-routes';
import { Config } from '../config/config';
import { CallForwardingSignalService } from './call-forwarding-service';

export const CALL_FORWARDING_ROOT = '/call-forwarding-signal/v0.4';

/**
 * CAMARA Call Forwarding Signal 0.4.0 (CONTRACT §11): POST
 * /call-forwarding-signal/v0.4/unconditional-call-forwardings and …/call-forwardings.
 */
export function createCallForwardingApi(deps: CamaraApiDeps, config: CamaraApiConfig & Pick<Config, 'CALL_FORWARDING_LIST'>): CamaraApiHandlers {
  const service = new CallForwardingSignalService({
    gate: camaraGateOf(deps, config),
    hlrFacts: (msisdn) => deps.verification.hlrFactsComplete(msisdn),
    listOffered: config.CALL_FORWARDING_LIST,
  });
  return camaraApiRoutes(CALL_FORWARDING_ROOT, {
    '/unconditional-call-forwardings': {
      operation: 'call_forwarding',
      answer: async (grant, body, correlator) => {
        const r = await service.unconditional(grant, body, correlator);
        return { msisdn: r.msisdn, body: { active: r.value } };
      },
    },
    '/call-forwardings': {
      operation: 'call_forwarding',
      answer: async (grant, body, correlator) => {
        const r = await service.all(grant, body, correlator);
        return { msisdn: r.msisdn, body: r.value };
      },
    },
  }, { tokens: deps.tokens, bodyLimitBytes: config.BODY_LIMIT_BYTES, logger: deps.logger });
}
