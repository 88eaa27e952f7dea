import { CallForwardingSignalService } from './call-forwarding-service';
import { CamaraApi, CamaraApiConfig, CamaraApiDeps, camaraKit } from '../camara/camara-api-kit';
import { camaraRouter } from '../camara/camara-router';
import { Config } from '../config/config';
import { camaraApi } from '../partners/camara-apis';

export const CALL_FORWARDING_ROOT = camaraApi('call-forwarding-signal').root;

export type CallForwardingConfig = CamaraApiConfig & Pick<Config, 'CALL_FORWARDING_LIST'>;

export type CallForwardingApi = CamaraApi<CallForwardingSignalService>;

/**
 * CAMARA Call Forwarding Signal 0.4.0 (CONTRACT §11): POST
 * /call-forwarding-signal/v0.4/unconditional-call-forwardings and …/call-forwardings.
 */
export function createCallForwardingApi(deps: CamaraApiDeps, config: CallForwardingConfig): CallForwardingApi {
  const kit = camaraKit(deps, config);
  const service = new CallForwardingSignalService({
    call: kit.call,
    hlrFacts: (msisdn) => deps.verification.hlrFactsComplete(msisdn),
    listOffered: config.CALL_FORWARDING_LIST,
  });
  const routes = camaraRouter(kit.routes, CALL_FORWARDING_ROOT, {
    'unconditional-call-forwardings': async (grant, body, correlator) => {
      const r = await service.unconditional(grant, body, correlator);
      return { msisdn: r.msisdn, body: { active: r.value } };
    },
    'call-forwardings': async (grant, body, correlator) => {
      const r = await service.all(grant, body, correlator);
      return { msisdn: r.msisdn, body: r.value };
    },
  });
  return { routes, service };
}
