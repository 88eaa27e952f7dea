import { configSchema } from '../../src/config/config';
import { kycMatchSettings } from '../../src/config/kyc-match-settings';
import { signalsSettings } from '../../src/config/signals-settings';
import { subscriptionSettings } from '../../src/config/subscription-settings';
import { DECLARED_APIS } from '../../src/partners/camara-apis';

/*
 * Each declaration lists the settings that are its API's own (CONTRACT §13). The type keeps a
 * misspelt name from compiling; this keeps a new API-specific setting from going undeclared, and
 * one setting from being claimed by two APIs.
 */

interface Declares { readonly name: string; readonly registryOperation: string; readonly settings: readonly string[] }

/** The setting groups of src/config/ whose every setting serves one CAMARA API. */
const API_GROUPS: readonly object[] = [kycMatchSettings, signalsSettings, subscriptionSettings];

/**
 * Named after an API, but read by the verification core for every interface (legacy REST,
 * GraphQL and CAMARA alike): the caches and the legacy look-back.
 */
const SHARED = new Set(['SIM_SWAP_MAX_AGE_HOURS', 'SIM_SWAP_CACHE_TTL_S', 'KYC_CACHE_TTL_S', 'KYC_STALE_S']);

const envForm = (word: string): string => `${word.toUpperCase().replaceAll('-', '_')}_`;

/** The settings that are some API's own: in an API's group, or named after an API's name or registry operation. */
function apiSpecific(schemaKeys: readonly string[], apis: readonly Declares[]): string[] {
  const grouped = new Set(API_GROUPS.flatMap((g) => Object.keys(g)));
  const prefixes = apis.flatMap((a) => [envForm(a.name), envForm(a.registryOperation)]);
  return schemaKeys.filter((k) => !SHARED.has(k) && (grouped.has(k) || prefixes.some((p) => k.startsWith(p))));
}

function ownershipProblems(schemaKeys: readonly string[], apis: readonly Declares[]): string[] {
  const known = new Set(schemaKeys);
  const problems = apis.flatMap((a) => a.settings.filter((k) => !known.has(k)).map((k) => `${a.name} declares ${k}, which src/config/ does not have`));
  const checked = new Set([...apiSpecific(schemaKeys, apis), ...apis.flatMap((a) => a.settings)]);
  for (const key of checked) {
    const owners = apis.filter((a) => a.settings.includes(key)).map((a) => a.name);
    if (owners.length === 0) problems.push(`${key} is no API's: declare it in src/partners/camara-apis.ts`);
    if (owners.length > 1) problems.push(`${key} is declared by ${owners.join(' and ')}`);
  }
  return problems;
}

const SCHEMA_KEYS = Object.keys(configSchema.innerType().shape);

describe('the settings each CAMARA declaration names', () => {
  it('when the declarations are read against the config schema, then every API-specific setting is declared by exactly one API, and every declared one exists', () => {
    expect(ownershipProblems(SCHEMA_KEYS, DECLARED_APIS)).toEqual([]);
  });

  it('when the API-specific settings are listed, then they include those named after an API and exclude the shared ones', () => {
    const specific = apiSpecific(SCHEMA_KEYS, DECLARED_APIS);
    expect(specific).toEqual(expect.arrayContaining(['SIM_SWAP_MONITORED_DAYS', 'DEVICE_SWAP_MONITORED_DAYS', 'CALL_FORWARDING_LIST', 'KYC_MATCH_SCORES', 'WEBHOOK_LOCK_MS']));
    for (const shared of ['TIMEZONE', ...SHARED]) expect(specific).not.toContain(shared);
  });

  it('when a setting is undeclared, declared twice, or declared but unknown, then each is named', () => {
    const apis: Declares[] = [
      { name: 'sim-swap', registryOperation: 'sim_swap', settings: ['SIM_SWAP_MONITORED_DAYS', 'TIMEZONE'] },
      { name: 'device-swap', registryOperation: 'device_swap', settings: ['DEVICE_SWAP_MONITORED_DAY', 'TIMEZONE'] },
    ];
    const keys = ['TIMEZONE', 'SIM_SWAP_MONITORED_DAYS', 'SIM_SWAP_CACHE_TTL_S', 'DEVICE_SWAP_MONITORED_DAYS'];
    expect(ownershipProblems(keys, apis)).toEqual([
      'device-swap declares DEVICE_SWAP_MONITORED_DAY, which src/config/ does not have',
      'DEVICE_SWAP_MONITORED_DAYS is no API\'s: declare it in src/partners/camara-apis.ts',
      'TIMEZONE is declared by sim-swap and device-swap',
    ]);
  });
});
