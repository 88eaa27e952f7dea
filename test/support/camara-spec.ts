import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HeaderSource, OpenApiSpec } from './openapi-validator';
import { DECLARED_APIS } from '../../src/partners/camara-apis';

/*
 * The official CAMARA documents (CONTRACT §7), read at run time from ../shared/camara (or
 * CAMARA_SPECS_DIR); they are never copied into the repository. Every CAMARA reply the tests
 * receive goes through assertCamaraResponse.
 */

export const CAMARA_DIR = process.env.CAMARA_SPECS_DIR ?? resolve(__dirname, '..', '..', '..', 'shared', 'camara');

export function camaraFile(name: string): string {
  const file = join(CAMARA_DIR, name);
  if (!existsSync(file)) throw new Error(`CAMARA reference file ${file} not found: set CAMARA_SPECS_DIR to the folder holding sim-swap.yaml`);
  return file;
}

let specs: OpenApiSpec[] | undefined;
/** Every declared API version's official yaml (named after the API), under the root its declaration gives. */
export function camaraSpecs(): OpenApiSpec[] {
  specs ??= DECLARED_APIS.map((api) => OpenApiSpec.load(camaraFile(`${api.name}.yaml`), api.root));
  return specs;
}

/** The path as the service routes it: any case, one trailing slash allowed. */
function routeKey(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
}

/** The document whose server path covers a request path. */
export function camaraSpecFor(path: string): OpenApiSpec | undefined {
  const key = routeKey(path);
  return camaraSpecs().find((s) => key === s.basePath || key.startsWith(`${s.basePath}/`));
}

/**
 * Statuses the API documents do not list but CAMARA Commonalities (which they refer to for
 * "a complete list of error responses") defines, with their codes: answered as ErrorInfo.
 */
const COMMONALITIES: Record<number, string[]> = {
  404: ['NOT_FOUND'],
  405: ['METHOD_NOT_ALLOWED'],
  429: ['TOO_MANY_REQUESTS', 'QUOTA_EXCEEDED'],
  500: ['INTERNAL'],
  503: ['UNAVAILABLE'],
};

/**
 * The subscriptions schema requires https sinks; the tests' sinks are plain http on loopback,
 * which SINK_ALLOW_HTTP permits (CONTRACT §8). Only the scheme is relaxed for validation.
 */
function asHttpsSinks(body: unknown): unknown {
  const fix = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    return typeof o.sink === 'string' && o.sink.startsWith('http://') ? { ...o, sink: `https://${o.sink.slice(7)}` } : o;
  };
  return Array.isArray(body) ? body.map(fix) : fix(body);
}

/** Every problem with a CAMARA reply: against its operation's documented response, else ErrorInfo + Commonalities. */
export function camaraResponseErrors(method: string, requestPath: string, status: number, headers: HeaderSource, rawBody: unknown): string[] {
  const path = routeKey(requestPath);
  const body = path.startsWith('/sim-swap-subscriptions/') ? asHttpsSinks(rawBody) : rawBody;
  const spec = camaraSpecFor(path);
  if (!spec) return [`${path} is under no CAMARA document`];
  const documented = spec.operation(method, path) ? spec.response(method, path, status) : undefined;
  if (documented) return spec.responseErrors(method, path, status, headers, body);
  const codes = COMMONALITIES[status];
  if (!codes) return [`status ${status} is neither documented for ${method.toUpperCase()} ${path} nor a CAMARA Commonalities error`];
  const errors = spec.validate(spec.resolve('#/components/schemas/ErrorInfo'), body, 'body');
  const b = body as { status?: unknown; code?: unknown } | undefined;
  if (b?.status !== status) errors.push(`body/status is ${String(b?.status)}, not ${status}`);
  if (!codes.includes(String(b?.code))) errors.push(`body/code ${String(b?.code)} is not one of ${codes.join(', ')}`);
  if (!/^application\/json\b/.test(headers.get('content-type') ?? '')) errors.push('content-type is not application/json');
  const correlator = headers.get('x-correlator');
  if (correlator !== null) errors.push(...spec.validate(spec.resolve('#/components/schemas/XCorrelator'), correlator, 'header x-correlator'));
  return errors;
}

/** Problems with a CloudEvent a sink received, against the subscriptions document's schema for its type. */
export function cloudEventErrors(event: unknown): string[] {
  const spec = camaraSpecFor('/sim-swap-subscriptions/v0.3')!;
  const type = (event as { type?: unknown } | undefined)?.type;
  const schema = type === 'org.camaraproject.sim-swap-subscriptions.v0.swapped' ? 'EventSimSwap'
    : type === 'org.camaraproject.sim-swap-subscriptions.v0.subscription-ended' ? 'EventSubscriptionEnded' : 'CloudEvent';
  return spec.validate(spec.resolve(`#/components/schemas/${schema}`), event, 'event');
}

/** Throws, naming every problem, when a CAMARA reply does not conform to the official documents. */
export function assertCamaraResponse(method: string, path: string, status: number, headers: HeaderSource, body: unknown, text?: string): void {
  const spec = camaraSpecFor(path) ?? camaraSpecs()[0];
  spec.throwOn(camaraResponseErrors(method, path, status, headers, body), method, path, status, body, text);
}
