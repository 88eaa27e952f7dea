import { createCallForwardingApi } from './call-forwarding/call-forwarding-api';
import { CamaraApiDeps } from './camara/camara-api-kit';
import { Config } from './config/config';
import { createDeviceSwapApi } from './device-swap/device-swap-api';
import { Routes } from './http/routes';
import { createAgeVerificationApi } from './kyc-age-verification/age-verification-api';
import { kycIdentityChecks } from './kyc-match/identity-checks';
import { KycMatchApi, createKycMatchApi } from './kyc-match/kyc-match-api';
import { createKycTenureApi } from './kyc-tenure/kyc-tenure-api';
import { createNumberRecyclingApi } from './number-recycling/number-recycling-api';
import { CamaraApiRoot } from './partners/camara-apis';
import { createSimSwapApi } from './sim-swap/sim-swap-api';
import { CustomerRecords } from './verification/ports/customer-records';
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
 * declarations' roots (src/partners/camara-apis.ts), one per version, so a declaration without a
 * factory, or a factory without a declaration, does not compile, and an old version kept beside
 * a new one is one more key; the composition root mounts them in the declarations' order.
 */
export const CAMARA_API_FACTORIES: Readonly<Record<CamaraApiRoot, CamaraApiFactory>> = {
  '/sim-swap/v2': (ctx, config) => createSimSwapApi(ctx, config),
  '/sim-swap-subscriptions/v0.3': (ctx) => ({ routes: ctx.subscriptionRoutes }),
  '/kyc-tenure/v0.2': (ctx, config) => createKycTenureApi(ctx, config),
  '/kyc-match/v0.4': (ctx, config) => kycMatchOf(ctx, config),
  '/device-swap/v1': (ctx, config) => createDeviceSwapApi(ctx, config),
  '/call-forwarding-signal/v0.4': (ctx, config) => createCallForwardingApi(ctx, config),
  '/number-recycling/v0.2': (ctx, config) => createNumberRecyclingApi(ctx, config),
  '/kyc-age-verification/v0.2': (ctx, config) => createAgeVerificationApi({ ...ctx, identity: kycIdentityChecks(kycMatchOf(ctx, config).service, ctx.records) }, config),
};
