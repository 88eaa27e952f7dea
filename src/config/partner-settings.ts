import { SettingsOf, SettingsRule, int, issue, optionalString } from './setting-types';
import { ServerSettings } from './server-settings';

/** The partner registry and the signed requests' checks (legacy REST and GraphQL). */
export const partnerSettings = {
  /** Partner registry (JSON); default is the demo registry shipped in fixtures/. */
  PARTNERS_FILE: optionalString,
  /** Allowed distance between a request's timestamp and the server clock. */
  SIG_MAX_SKEW_S: int(1, 3600, 300),
  /** Failed signatures tolerated per (api key, client address) within AUTH_FAIL_WINDOW_S; further attempts of that pair get 429 before any hashing. */
  AUTH_FAIL_LIMIT: int(1, 10_000, 20),
  /** Failed signatures tolerated per client address (IPv6: per /64) within AUTH_FAIL_WINDOW_S, whatever the keys. */
  AUTH_FAIL_ADDRESS_LIMIT: int(1, 10_000, 100),
  AUTH_FAIL_WINDOW_S: int(1, 86_400, 60),
};

export type PartnerSettings = SettingsOf<typeof partnerSettings>;

/** No demo partners in production: their secrets are public. */
export const productionPartnersRule: SettingsRule<PartnerSettings & Pick<ServerSettings, 'NODE_ENV'>> = (c, ctx) => {
  if (c.NODE_ENV === 'production' && !c.PARTNERS_FILE) issue(ctx, 'PARTNERS_FILE', 'is required in production');
};
