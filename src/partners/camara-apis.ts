import type { Config } from '../config/config';

/*
 * The CAMARA APIs the service offers, one declaration per API version (CONTRACT §13). What the
 * rest of the service knows about an API is derived from this list: the registry's operations
 * (operation.ts), the scopes the token endpoint grants and metadata lists (oauth/access-scopes.ts),
 * the audit and usage names (`registry.operation`, audit/audit-operation.ts), the metrics labels,
 * the demo calls printed at start, and which factory the composition root mounts (src/camara-apis.ts
 * pairs each name with its work and rendering). Plain data, so every layer may read it: the one
 * import is a type (the settings' names), erased at build.
 */

/** The name of a setting (src/config/): a misspelt one in a declaration does not compile. */
export type SettingKey = keyof Config;

/**
 * What the docs' tables say of an operation beyond what the declaration derives (route, scopes,
 * registry operation): Markdown, written by `npm run docs:apis` (scripts/camara-api-docs.ts).
 */
export interface CamaraOperationDocs {
  /** README, after the route: what the body carries that a reader needs first ("with `tenureDate` (`YYYY-MM-DD`)"). */
  readonly asks?: string;
  /** README: an answer as a reader sees it, and where it comes from. */
  readonly answer: string;
  /** docs/camara.md: the body's properties, `?` after an optional one. */
  readonly body: string;
  /** docs/camara.md: the success body's shape. */
  readonly returns: string;
}

/** One POST operation of an API version: its last path segment and the scopes that admit it (any one). */
export interface CamaraOperationDeclaration {
  readonly name: string;
  readonly scopes: readonly string[];
  readonly docs: CamaraOperationDocs;
}

export interface CamaraApiDeclaration {
  /** The API's name, its root's first segment: `kyc-match`. */
  readonly name: string;
  /** The title the CAMARA yaml gives it. */
  readonly title: string;
  /** The yaml's version (`0.4.0`); the root carries its URL form (`v0.4`). */
  readonly version: string;
  readonly root: string;
  /** The registry `operations` word that grants it: the permission, the rate limit, the billing. */
  readonly registryOperation: string;
  readonly operations: readonly CamaraOperationDeclaration[];
  /** Every scope of the API, in the order a token grants them (an operation's scopes are among them). */
  readonly scopes: readonly string[];
  /** The demo call printed at start: a path under the root and a body on a demo number that shows an answer. */
  readonly demo?: { readonly operation: string; readonly body: string };
  /**
   * The settings that are this API's own (read for it alone; the shared ones, such as `TIMEZONE`,
   * are no API's). test/unit/camara-api-settings.test.ts holds each such setting to one API.
   */
  readonly settings: readonly SettingKey[];
  /**
   * The yaml declares every operation's request body required: a request without body bytes is
   * 400 (where a JSON parser would read it as `{}`). Where the yaml leaves the body optional, absent.
   */
  readonly bodyRequired?: true;
}

/**
 * In the order scope strings are granted (SIM Swap's first, as they were listed before the other
 * APIs came); a new version of an API is one more entry, beside the old one while clients use it.
 */
export const CAMARA_APIS = [
  {
    name: 'sim-swap', title: 'SIM Swap', version: '2.1.0', root: '/sim-swap/v2', registryOperation: 'sim_swap',
    scopes: ['sim-swap', 'sim-swap:check', 'sim-swap:retrieve-date'],
    operations: [
      {
        name: 'retrieve-date', scopes: ['sim-swap:retrieve-date', 'sim-swap'],
        docs: {
          answer: '`{"latestSimChange": "2026-11-20T08:15:00+00:00"}`: the latest swap, else the current SIM\'s activation, in `TIMEZONE`',
          body: '`{"phoneNumber"?}`', returns: '`{"latestSimChange": RFC 3339 or null, "monitoredPeriod"?}`',
        },
      },
      {
        name: 'check', scopes: ['sim-swap:check', 'sim-swap'],
        docs: {
          asks: 'with optional `maxAge` (hours, 1–2400, default 240)', answer: '`{"swapped": true}`',
          body: '`{"phoneNumber"?, "maxAge"?}`', returns: '`{"swapped": boolean}`',
        },
      },
    ],
    demo: { operation: 'check', body: '{"phoneNumber":"+255712000006","maxAge":240}' },
    settings: ['SIM_SWAP_MONITORED_DAYS'],
  },
  {
    // Built by src/subscriptions/ (a store, webhooks and a queue), not by the shared CAMARA router.
    name: 'sim-swap-subscriptions', title: 'SIM Swap Subscriptions', version: '0.3.0', root: '/sim-swap-subscriptions/v0.3', registryOperation: 'sim_swap',
    scopes: ['sim-swap-subscriptions:org.camaraproject.sim-swap-subscriptions.v0.swapped:create', 'sim-swap-subscriptions:read', 'sim-swap-subscriptions:delete'],
    operations: [{
      name: 'subscriptions', scopes: ['sim-swap-subscriptions:org.camaraproject.sim-swap-subscriptions.v0.swapped:create'],
      docs: {
        asks: '(`POST`, `GET`), and `/sim-swap-subscriptions/v0.3/subscriptions/{subscriptionId}` (`GET`, `DELETE`)',
        answer: 'a `Subscription`; each swap of the number is then sent to the partner\'s sink as a CloudEvent',
        body: '`{"protocol": "HTTP", "sink", "types", "config", "sinkCredential"?}`',
        returns: '201 `Subscription`: see [Subscriptions](#subscriptions-sim-swap-subscriptions-030)',
      },
    }],
    settings: [
      'SINK_ALLOW_HTTP', 'SINK_ALLOW_PRIVATE', 'SINK_DNS_SERVERS', 'SINK_DNS_TIMEOUT_MS', 'SINK_CREDENTIALS_KEY_FILE',
      'WEBHOOK_RETRY_WINDOW_S', 'WEBHOOK_TIMEOUT_MS', 'WEBHOOK_SINK_CONCURRENCY', 'WEBHOOK_CONCURRENCY', 'WEBHOOK_PARTNER_CONCURRENCY',
      'SUBSCRIPTIONS_MAX_PER_PARTNER', 'WEBHOOK_BACKOFF_BASE_MS', 'WEBHOOK_BACKOFF_MAX_MS', 'WEBHOOK_LOCK_MS',
      'WEBHOOK_DEAD_LETTER_RETENTION_S', 'WEBHOOK_DEAD_LETTER_MAX', 'SUBSCRIPTION_SWEEP_MS',
    ],
  },
  {
    name: 'kyc-tenure', title: 'KYC Tenure', version: '0.2.0', root: '/kyc-tenure/v0.2', registryOperation: 'kyc',
    scopes: ['kyc-tenure:check-tenure'],
    operations: [{
      name: 'check-tenure', scopes: ['kyc-tenure:check-tenure'],
      docs: {
        asks: 'with `tenureDate` (`YYYY-MM-DD`)', answer: '`{"tenureDateCheck": true, "contractType": "PAYG"}`',
        body: '`{"phoneNumber"?, "tenureDate"}`', returns: '`{"tenureDateCheck": boolean, "contractType": "PAYG"\\|"PAYM"\\|"Business"}`',
      },
    }],
    demo: { operation: 'check-tenure', body: '{"phoneNumber":"+255712000001","tenureDate":"2024-01-01"}' },
    settings: [],
  },
  {
    // 255712000011's record: José María Núñez, born 1987-04-12. Sent unaccented, with one wrong birth date: true, true, false.
    name: 'kyc-match', title: 'KYC Match', version: '0.4.0', root: '/kyc-match/v0.4', registryOperation: 'kyc_match',
    scopes: ['kyc-match:match'],
    operations: [{
      name: 'match', scopes: ['kyc-match:match'],
      docs: {
        asks: 'with any of the identity attributes',
        answer: '`{"givenNameMatch": "true", "birthdateMatch": "false"}`, compared with the subscriber\'s record in customer records (`CRM_URL`), '
          + 'fetched for each request and never cached, logged or echoed ([`docs/kyc-match.md`](docs/kyc-match.md))',
        body: '`{"phoneNumber"?, <identity attributes>}`',
        returns: '`{"<attr>Match": "true"\\|"false"\\|"not_available", "<attr>MatchScore"?}`: see [kyc-match.md](kyc-match.md)',
      },
    }],
    demo: { operation: 'match', body: '{"phoneNumber":"+255712000011","givenName":"Jose","familyName":"Nunez","birthdate":"1987-04-21"}' },
    settings: ['KYC_MATCH_SCORES', 'KYC_MATCH_ID_DOCUMENT_REQUIRED', 'KYC_MATCH_MAX_PER_NUMBER_PER_DAY', 'KYC_MATCH_KEY_FILE'],
  },
  {
    // device-swap.yaml accepts the API-wide `device-swap` scope or the operation's own.
    name: 'device-swap', title: 'Device Swap', version: '1.0.0', root: '/device-swap/v1', registryOperation: 'device_swap', bodyRequired: true,
    scopes: ['device-swap', 'device-swap:check', 'device-swap:retrieve-date'],
    operations: [
      {
        name: 'retrieve-date', scopes: ['device-swap:retrieve-date', 'device-swap'],
        docs: {
          answer: '`{"latestDeviceChange": "2026-11-28T06:15:00+00:00"}`',
          body: '`{"phoneNumber"?}`', returns: '`{"latestDeviceChange": RFC 3339 or null, "monitoredPeriod"?}`',
        },
      },
      {
        name: 'check', scopes: ['device-swap:check', 'device-swap'],
        docs: { asks: 'with optional `maxAge`', answer: '`{"swapped": true}`', body: '`{"phoneNumber"?, "maxAge"?}`', returns: '`{"swapped": boolean}`' },
      },
    ],
    demo: { operation: 'check', body: '{"phoneNumber":"+255712000011","maxAge":24}' },
    settings: ['DEVICE_SWAP_MONITORED_DAYS'],
  },
  {
    name: 'call-forwarding-signal', title: 'Call Forwarding Signal', version: '0.4.0', root: '/call-forwarding-signal/v0.4', registryOperation: 'call_forwarding', bodyRequired: true,
    scopes: ['call-forwarding-signal:unconditional-call-forwardings:read', 'call-forwarding-signal:call-forwardings:read'],
    operations: [
      {
        name: 'unconditional-call-forwardings', scopes: ['call-forwarding-signal:unconditional-call-forwardings:read'],
        docs: { answer: '`{"active": true}`', body: '`{"phoneNumber"?}`', returns: '`{"active": boolean}`' },
      },
      {
        name: 'call-forwardings', scopes: ['call-forwarding-signal:call-forwardings:read'],
        docs: { answer: '`["unconditional"]`, or `["inactive"]`', body: '`{"phoneNumber"?}`', returns: '`["unconditional", …]` or `["inactive"]`' },
      },
    ],
    demo: { operation: 'unconditional-call-forwardings', body: '{"phoneNumber":"+255712000012"}' },
    settings: ['CALL_FORWARDING_LIST'],
  },
  {
    name: 'number-recycling', title: 'Number Recycling', version: '0.2.0', root: '/number-recycling/v0.2', registryOperation: 'number_recycling', bodyRequired: true,
    scopes: ['number-recycling:check'],
    operations: [{
      name: 'check', scopes: ['number-recycling:check'],
      docs: {
        asks: 'with `specifiedDate` (`YYYY-MM-DD`)', answer: '`{"phoneNumberRecycled": true}`',
        body: '`{"phoneNumber"?, "specifiedDate"}`', returns: '`{"phoneNumberRecycled": boolean}`',
      },
    }],
    demo: { operation: 'check', body: '{"phoneNumber":"+255712000015","specifiedDate":"2024-01-01"}' },
    settings: [],
  },
  {
    // Built the declared way first (issue 31): this entry, src/kyc-age-verification/ and its factory in src/camara-apis.ts.
    // 255712000011's record: born 1987-04-12, identity verified.
    name: 'kyc-age-verification', title: 'KYC Age Verification', version: '0.2.1', root: '/kyc-age-verification/v0.2', registryOperation: 'age_verification', bodyRequired: true,
    scopes: ['kyc-age-verification:verify'],
    operations: [{
      name: 'verify', scopes: ['kyc-age-verification:verify'],
      docs: {
        asks: 'with `ageThreshold` (0–120) and any of its identity attributes',
        answer: '`{"ageCheck": "true", "verifiedStatus": true}`, from the customer record\'s `birthdate` on today\'s date in `TIMEZONE`; '
          + 'identity attributes give one `identityMatchScore`; KYC Match\'s privacy rules and per-number allowance',
        body: '`{"phoneNumber"?, "ageThreshold", <identity attributes>?, "includeContentLock"?, "includeParentalControl"?}`',
        returns: '`{"ageCheck": "true"\\|"false"\\|"not_available", "verifiedStatus"?, "identityMatchScore"?, "contentLock"?, "parentalControl"?}`: '
          + 'see [KYC Age Verification](#kyc-age-verification-021)',
      },
    }],
    demo: { operation: 'verify', body: '{"phoneNumber":"+255712000011","ageThreshold":18}' },
    // Its per-number allowance is KYC Match's, and so are the settings that shape it.
    settings: [],
  },
] as const satisfies readonly CamaraApiDeclaration[];

export type CamaraApiName = (typeof CAMARA_APIS)[number]['name'];

/** What tells two versions of one API apart: each declared root is one API version (`/kyc-match/v0.4`). */
export type CamaraApiRoot = (typeof CAMARA_APIS)[number]['root'];

/** The registry operations the CAMARA declarations name (the legacy two among them). */
export type CamaraRegistryOperation = (typeof CAMARA_APIS)[number]['registryOperation'];

/** A declaration with its name and registry operation typed as the list's own. */
export type DeclaredApi = CamaraApiDeclaration & { readonly name: CamaraApiName; readonly registryOperation: CamaraRegistryOperation };

/** The list, each entry read through the one interface (optional members included). */
export const DECLARED_APIS: readonly DeclaredApi[] = CAMARA_APIS;

/** The declaration of the API version at `root`, with its own operation names. */
export type DeclarationAt<R extends CamaraApiRoot> = Extract<(typeof CAMARA_APIS)[number], { readonly root: R }>;

/** The operation names declared under `root` (`'check' | 'retrieve-date'` for `/sim-swap/v2`). */
export type CamaraOperationName<R extends CamaraApiRoot> = DeclarationAt<R>['operations'][number]['name'];

/** The operation names declared for API `N`, whichever of its versions (`'retrieve-date' | 'check'` for `sim-swap`). */
export type CamaraApiOperationName<N extends CamaraApiName> = Extract<(typeof CAMARA_APIS)[number], { readonly name: N }>['operations'][number]['name'];

/** The declaration at `root`: one per API version. */
export function camaraApiAt(root: CamaraApiRoot): DeclaredApi {
  const api = DECLARED_APIS.find((a) => a.root === root);
  if (api === undefined) throw new Error(`no CAMARA API declared at ${root}`);
  return api;
}

/** The declaration of `name` (its first version, where two are declared side by side: use its root then). */
export function camaraApi<N extends CamaraApiName>(name: N): DeclaredApi & Extract<(typeof CAMARA_APIS)[number], { readonly name: N }> {
  const api = CAMARA_APIS.find((a): a is Extract<(typeof CAMARA_APIS)[number], { readonly name: N }> => a.name === name);
  if (api === undefined) throw new Error(`no CAMARA API ${name} declared`);
  return api;
}
