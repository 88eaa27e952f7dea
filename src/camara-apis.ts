import { createCallForwardingApi } from './call-forwarding/call-forwarding-api';
import { CamaraApiDeps } from './camara/camara-api-kit';
import { Config } from './config/config';
import { createDeviceSwapApi } from './device-swap/device-swap-api';
import { Routes } from './http/routes';
import { createAgeVerificationApi } from './kyc-age-verification/age-verification-api';
import { kycIdentityChecks } from './kyc-match/identity-checks';
import { KycMatchApi, createKycMatchApi } from './kyc-match/kyc-match-api';
import { CustomerRecords } from './kyc-match/ports/customer-records';
import { createKycTenureApi } from './kyc-tenure/kyc-tenure-api';
import { createNumberRecyclingApi } from './number-recycling/number-recycling-api';
import { CamaraApiName } from './partners/camara-apis';
import { createSimSwapApi } from './sim-swap/sim-swap-api';
import { Metrics } from './verification/ports/metrics';
import { QuotaCounter, StoreMode } from './verification/ports/state-store';

/** What the composition root has built by the time the CAMARA APIs are: each API takes the part it uses. */
export interface CamaraApiContext extends CamaraApiDeps {
  records: CustomerRecords | undefined;
  quotas: QuotaCounter;
  storeMode: () => StoreMode;
  metrics: Pick<Metrics, 'rateLimited'>;
  /** SIM Swap Subscriptions' routes, built earlier by src/subscriptions/ (its service also takes the events API's SIM changes). */
  subscriptionRoutes: Routes;
}

/** KYC Match, built once per start: its own routes, and its identity rules and allowance lent to KYC Age Verification. */
const kycMatchOf = (() => {
  const built = new WeakMap<CamaraApiContext, KycMatchApi>();
  return (ctx: CamaraApiContext, config: Config): KycMatchApi => {
    let api = built.get(ctx);
    if (api === undefined) {
      api = createKycMatchApi(ctx, config);
      built.set(ctx, api);
    }
    return api;
  };
})();

type CamaraApiFactory = (ctx: CamaraApiContext, config: Config) => { routes: Routes } | Promise<{ routes: Routes }>;

/**
 * Each declared API version's work and rendering: the factory of its own folder. Keyed by the
 * declarations' names (src/partners/camara-apis.ts), so a declaration without a factory, or a
 * factory without a declaration, does not compile; the composition root mounts them in the
 * declarations' order.
 */
export const CAMARA_API_FACTORIES: Readonly<Record<CamaraApiName, CamaraApiFactory>> = {
  'sim-swap': (ctx, config) => createSimSwapApi(ctx, config),
  'sim-swap-subscriptions': (ctx) => ({ routes: ctx.subscriptionRoutes }),
  'kyc-tenure': (ctx, config) => createKycTenureApi(ctx, config),
  'kyc-match': (ctx, config) => kycMatchOf(ctx, config),
  'device-swap': (ctx, config) => createDeviceSwapApi(ctx, config),
  'call-forwarding-signal': (ctx, config) => createCallForwardingApi(ctx, config),
  'number-recycling': (ctx, config) => createNumberRecyclingApi(ctx, config),
  'kyc-age-verification': (ctx, config) => createAgeVerificationApi({ ...ctx, identity: kycIdentityChecks(kycMatchOf(ctx, config).service, ctx.records) }, config),
};
