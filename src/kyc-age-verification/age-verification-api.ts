import { AgeVerificationService } from './age-verification-service';
import { IdentityChecks } from './ports/identity-checks';
import { CamaraApi, CamaraApiConfig, CamaraApiDeps, camaraKit } from '../camara/camara-api-kit';
import { camaraRouter } from '../camara/camara-router';
import { Config } from '../config/config';
import { createZonedCalendar } from '../kernel/zoned-date';
import { camaraApi } from '../partners/camara-apis';

const DECLARATION = camaraApi('kyc-age-verification');

export type AgeVerificationConfig = CamaraApiConfig & Pick<Config, 'TIMEZONE'>;

export interface AgeVerificationApiDeps extends CamaraApiDeps {
  /** KYC Match's identity rules and allowance (src/camara-apis.ts lends them). */
  identity: IdentityChecks;
}

/** KYC Age Verification (CONTRACT §13): POST verify under its declared root. */
export function createAgeVerificationApi(deps: AgeVerificationApiDeps, config: AgeVerificationConfig): CamaraApi<AgeVerificationService> {
  const kit = camaraKit(deps, config);
  const service = new AgeVerificationService({
    verification: deps.verification, call: kit.call, identity: deps.identity, clock: deps.clock, calendar: createZonedCalendar(config.TIMEZONE),
  });
  const routes = camaraRouter(kit.routes, DECLARATION.root, {
    verify: async (grant, body, correlator) => {
      const r = await service.verify(grant, body, correlator);
      return { msisdn: r.msisdn, body: r.response };
    },
  });
  return { routes, service };
}
