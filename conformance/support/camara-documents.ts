import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { OpenApiSpec } from '../../test/support/openapi-validator';

/*
 * The official yaml of each API the kit runs, read from the folder the .feature files are in
 * (never copied into the repository): response schemas are checked against them, and each
 * scenario's resource path finds its operation (method, operationId, scopes) in them.
 */

export interface CamaraApi {
  /** The name the summary table shows. */
  title: string;
  yaml: string;
  /** The server path the yaml's paths are relative to. */
  root: string;
  features: string[];
}

/** The APIs the service offers and their official test definitions. */
export const APIS: readonly CamaraApi[] = [
  { title: 'SIM Swap 2.1.0', yaml: 'sim-swap.yaml', root: '/sim-swap/v2', features: ['sim-swap-checkSimSwap.feature', 'sim-swap-retrieveSimSwapDate.feature'] },
  { title: 'SIM Swap Subscriptions 0.3.0', yaml: 'sim-swap-subscriptions.yaml', root: '/sim-swap-subscriptions/v0.3', features: ['sim-swap-subscriptions.feature'] },
  { title: 'KYC Tenure 0.2.0', yaml: 'kyc-tenure.yaml', root: '/kyc-tenure/v0.2', features: ['kyc-tenure.feature'] },
  { title: 'KYC Match 0.4.0', yaml: 'kyc-match.yaml', root: '/kyc-match/v0.4', features: ['kyc-match.feature'] },
  { title: 'Device Swap 1.0.0', yaml: 'device-swap.yaml', root: '/device-swap/v1', features: ['device-swap-checkDeviceSwap.feature', 'device-swap-retrieveDeviceSwapDate.feature'] },
  { title: 'Call Forwarding Signal 0.4.0', yaml: 'call-forwarding-signal.yaml', root: '/call-forwarding-signal/v0.4',
    features: ['call-forwarding-signal-retrieveCallForwarding.feature', 'call-forwarding-signal-retrieveUnconditionalCallForwarding.feature'] },
  { title: 'Number Recycling 0.2.0', yaml: 'number-recycling.yaml', root: '/number-recycling/v0.2', features: ['number-recycling.feature'] },
  { title: 'KYC Age Verification 0.2.1', yaml: 'kyc-age-verification.yaml', root: '/kyc-age-verification/v0.2', features: ['kyc-age-verification.feature'] },
];

/** Official test definitions present in the folder for an API the service does not offer yet. */
export const NOT_OFFERED: readonly { title: string; feature: string }[] = [];

export function apiOfFeature(file: string): CamaraApi | undefined {
  return APIS.find((a) => a.features.some((f) => file.endsWith(f)));
}

export interface CamaraOperation {
  api: CamaraApi;
  spec: OpenApiSpec;
  method: string;
  /** The request path under the API's root, `{id}` parameters left in. */
  path: string;
  operationId: string;
  /** The scopes of the operation's first security requirement. */
  scopes: string[];
}

const loaded = new Map<string, OpenApiSpec>();

export function specOf(dir: string, api: CamaraApi): OpenApiSpec {
  const file = join(dir, api.yaml);
  if (!existsSync(file)) throw new Error(`${file} not found: --features must name the folder holding the official yaml and .feature files`);
  let spec = loaded.get(file);
  if (!spec) {
    spec = OpenApiSpec.load(file, api.root);
    loaded.set(file, spec);
  }
  return spec;
}

type Node = Record<string, unknown>;

/** Every operation of an API's yaml. */
export function operationsOf(dir: string, api: CamaraApi): CamaraOperation[] {
  const spec = specOf(dir, api);
  const out: CamaraOperation[] = [];
  for (const [path, item] of Object.entries((spec.doc.paths ?? {}) as Node)) {
    for (const [method, op] of Object.entries(item as Node)) {
      const o = op as Node;
      if (typeof o.operationId !== 'string') continue;
      const security = (o.security as Node[] | undefined)?.[0];
      const scopes = security ? (Object.values(security)[0] as string[]) : [];
      out.push({ api, spec, method: method.toUpperCase(), path: `${api.root}${path}`, operationId: o.operationId, scopes });
    }
  }
  return out;
}
