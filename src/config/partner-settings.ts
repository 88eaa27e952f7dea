import { z } from 'zod';
import { SettingsOf, SettingsRule, int, issue, optionalString } from './setting-types';
import { ServerSettings } from './server-settings';

/** The partner registry and the signed requests' checks (legacy REST and GraphQL). */
export const partnerSettings = {
  /** Partner registry (JSON); default is the demo registry shipped in fixtures/. With DATABASE_URL: imported once into an empty database registry. */
  PARTNERS_FILE: optionalString,
  /** The partner registry in PostgreSQL (CONTRACT §12); may be the audit database. Unset: PARTNERS_FILE. */
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL').optional(),
  /** 32-byte key (64 hex digits or base64) encrypting partner secrets in the database; required in production with DATABASE_URL. */
  PARTNER_SECRETS_KEY_FILE: optionalString,
  /** How often each instance compares the database registry's version with its own, behind LISTEN/NOTIFY. */
  PARTNERS_REFRESH_MS: int(100, 60_000, 1000),
  /** Allowed distance between a request's timestamp and the server clock. */
  SIG_MAX_SKEW_S: int(1, 3600, 300),
  /** Failed signatures tolerated per (api key, client address) within AUTH_FAIL_WINDOW_S; further attempts of that pair get 429 before any hashing. */
  AUTH_FAIL_LIMIT: int(1, 10_000, 20),
  /** Failed signatures tolerated per client address (IPv6: per /64) within AUTH_FAIL_WINDOW_S, whatever the keys. */
  AUTH_FAIL_ADDRESS_LIMIT: int(1, 10_000, 100),
  AUTH_FAIL_WINDOW_S: int(1, 86_400, 60),
};

export type PartnerSettings = SettingsOf<typeof partnerSettings>;

/** No demo partners in production: their secrets are public; nor database secrets under a key everyone knows. */
export const productionPartnersRule: SettingsRule<PartnerSettings & Pick<ServerSettings, 'NODE_ENV'>> = (c, ctx) => {
  if (c.NODE_ENV === 'production' && !c.PARTNERS_FILE && !c.DATABASE_URL) issue(ctx, 'PARTNERS_FILE', 'is required in production (or DATABASE_URL)');
  if (c.NODE_ENV === 'production' && c.DATABASE_URL && !c.PARTNER_SECRETS_KEY_FILE) issue(ctx, 'PARTNER_SECRETS_KEY_FILE', 'is required in production with DATABASE_URL');
};
