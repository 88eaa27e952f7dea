import { z } from 'zod';
import { adminRules, adminSettings } from './admin-settings';
import { auditSettings } from './audit-settings';
import { graphqlSettings } from './graphql-settings';
import { kycMatchSettings } from './kyc-match-settings';
import { issuerRules, oauthSettings, productionIssuerRule, productionJwksRule } from './oauth-settings';
import { partnerSettings, productionPartnersRule } from './partner-settings';
import { listenerRules, serverSettings, timeoutRules } from './server-settings';
import { SettingsRule } from './setting-types';
import { signalsSettings } from './signals-settings';
import { stateRules, stateSettings } from './state-settings';
import { backoffRule, concurrencyRule, productionSinkKeyRule, subscriptionSettings } from './subscription-settings';
import { productionUpstreamRule, upstreamPairRule, upstreamSettings } from './upstream-settings';
import { cacheRule, txnClaimRule, verificationSettings } from './verification-settings';

export { PRODUCTION_READINESS_DELAY_MS, readinessDelayMs } from './server-settings';
export { txnClaimNeedsMs } from './verification-settings';
export { webhookPartnerConcurrency } from './subscription-settings';
export type { AdminSettings } from './admin-settings';
export type { AuditSettings } from './audit-settings';
export type { GraphqlSettings } from './graphql-settings';
export type { KycMatchSettings } from './kyc-match-settings';
export type { OauthSettings } from './oauth-settings';
export type { PartnerSettings } from './partner-settings';
export type { ServerSettings } from './server-settings';
export type { SignalsSettings } from './signals-settings';
export type { StateSettings } from './state-settings';
export type { SubscriptionSettings } from './subscription-settings';
export type { UpstreamSettings } from './upstream-settings';
export type { VerificationSettings } from './verification-settings';

const settings = z.object({
  ...serverSettings,
  ...upstreamSettings,
  ...stateSettings,
  ...partnerSettings,
  ...verificationSettings,
  ...signalsSettings,
  ...graphqlSettings,
  ...oauthSettings,
  ...auditSettings,
  ...subscriptionSettings,
  ...kycMatchSettings,
  ...adminSettings,
});

type Settings = z.infer<typeof settings>;

/**
 * The cross-field rules, each owned by its component's file; run once every setting parsed on
 * its own, in this order (the order their messages are listed in).
 */
const rules: SettingsRule<Settings>[] = [
  upstreamPairRule, stateRules, listenerRules, productionPartnersRule, productionUpstreamRule,
  issuerRules, productionIssuerRule, productionSinkKeyRule, productionJwksRule, timeoutRules,
  backoffRule, txnClaimRule, concurrencyRule, cacheRule, adminRules,
];

/**
 * Every setting the service reads (CONTRACT §4), with its default and meaning, grouped by the
 * component that reads it (src/config/*-settings.ts). Values come from the environment as
 * strings; an empty string counts as unset.
 */
export const configSchema = settings.superRefine((c, ctx) => {
  for (const rule of rules) rule(c, ctx);
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Reads and validates settings; throws ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(configSchema.innerType().shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') raw[key] = v;
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(config)'}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
