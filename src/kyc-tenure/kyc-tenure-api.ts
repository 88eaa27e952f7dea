import { KycTenureService } from './kyc-tenure-service';
import { CamaraApi, CamaraApiConfig, CamaraApiDeps, camaraKit } from '../camara/camara-api-kit';
import { camaraRouter } from '../camara/camara-router';
import { Config } from '../config/config';
import { createZonedCalendar } from '../kernel/zoned-date';
import { camaraApi } from '../partners/camara-apis';

export const KYC_TENURE_ROOT = camaraApi('kyc-tenure').root;

export type KycTenureConfig = CamaraApiConfig & Pick<Config, 'TIMEZONE'>;

export type KycTenureApi = CamaraApi<KycTenureService>;

/** KYC Tenure (CONTRACT §7): POST check-tenure under /kyc-tenure/v0.2. */
export function createKycTenureApi(deps: CamaraApiDeps, config: KycTenureConfig): KycTenureApi {
  const kit = camaraKit(deps, config);
  const service = new KycTenureService({
    verification: deps.verification, clock: deps.clock, call: kit.call, calendar: createZonedCalendar(config.TIMEZONE),
  });
  const routes = camaraRouter(kit.routes, KYC_TENURE_ROOT, {
    'check-tenure': async (grant, body, correlator) => {
      const r = await service.checkTenure(grant, body, correlator);
      return { msisdn: r.msisdn, body: { tenureDateCheck: r.tenureDateCheck, contractType: r.contractType } };
    },
  });
  return { routes, service };
}
