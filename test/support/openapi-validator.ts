import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import yaml from 'js-yaml';

/*
 * Validates HTTP responses against an OpenAPI 3.0 or 3.1 document with ajv (JSON Schema
 * draft-07 for 3.0, 2020-12 for 3.1) and ajv-formats. Generic: it picks the operation by
 * method and path, the response by status (exact, then `4XX`, then `default`), checks the
 * documented headers and the application/json body. Local `$ref`s to `#/components/schemas/…`
 * are resolved by handing ajv the document's schemas as `$defs`. ajv runs in strict mode, so
 * a keyword it does not know fails loudly instead of being skipped.
 */

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = { [k: string]: Json };

export const OPENAPI_FILE = join(__dirname, '..', '..', 'docs', 'openapi.yaml');

export interface HeaderSource {
  get(name: string): string | null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const SCHEMAS_REF = '#/components/schemas/';

/**
 * A schema as ajv reads it: component refs point into `$defs`, and (OpenAPI 3.0) `nullable`
 * becomes a `null` type, since draft-07 has no such keyword.
 */
function toJsonSchema(node: Json, openapi30: boolean): Json {
  if (Array.isArray(node)) return node.map((n) => toJsonSchema(n, openapi30));
  if (!isObject(node)) return node;
  const out: Schema = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith(SCHEMAS_REF)) out.$ref = `#/$defs/${v.slice(SCHEMAS_REF.length)}`;
    else if (k === 'nullable' && openapi30) continue;
    else if (k === 'properties' && isObject(v)) out.properties = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, toJsonSchema(s, openapi30)]));
    else out[k] = toJsonSchema(v, openapi30);
  }
  if (openapi30 && node.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  return out;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing (no JSON body)';
  const s = JSON.stringify(value);
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}

function formatErrors(errors: ErrorObject[] | null | undefined, at: string, value: unknown): string[] {
  if (!errors || errors.length === 0) return [`${at}: does not match (${describe(value)})`];
  return errors.map((e) => {
    const extra = e.keyword === 'additionalProperties' ? ` "${String((e.params as { additionalProperty?: string }).additionalProperty)}"` : '';
    return `${at}${e.instancePath}: ${e.message ?? e.keyword}${extra}`;
  });
}

export class OpenApiSpec {
  private readonly ajv: Ajv;
  private readonly openapi30: boolean;
  private readonly defs: Json;
  private readonly compiled = new WeakMap<object, ValidateFunction>();

  /** `basePath`: the server URL's path the document's paths are relative to (e.g. `/sim-swap/v2`). */
  constructor(readonly doc: { [k: string]: Json }, readonly basePath = '') {
    const version = typeof doc.openapi === 'string' ? doc.openapi : '';
    if (!/^3\.[01]\.\d+$/.test(version)) throw new Error(`openapi-validator: unsupported OpenAPI version ${version}`);
    this.openapi30 = version.startsWith('3.0');
    const options = { strict: true, allErrors: true, strictRequired: false, strictTypes: false, allowUnionTypes: true };
    this.ajv = this.openapi30 ? new Ajv(options) : new Ajv2020(options);
    addFormats(this.ajv);
    // OpenAPI annotations that are not JSON Schema keywords.
    this.ajv.addKeyword({ keyword: 'example' });
    for (const k of ['discriminator', 'xml', 'externalDocs']) this.ajv.addKeyword({ keyword: k });
    const schemas = ((doc.components as Schema | undefined)?.schemas ?? {}) as Schema;
    this.defs = toJsonSchema(schemas, this.openapi30);
  }

  static load(file = OPENAPI_FILE, basePath = ''): OpenApiSpec {
    return OpenApiSpec.parse(readFileSync(file, 'utf8'), basePath);
  }

  static parse(text: string, basePath = ''): OpenApiSpec {
    // CORE_SCHEMA: a date-time in an example stays a string, as JSON would have it.
    const doc = yaml.load(text, { schema: yaml.CORE_SCHEMA });
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error('OpenAPI document is not a mapping');
    return new OpenApiSpec(doc as { [k: string]: Json }, basePath);
  }

  /** The document path of a request path, or undefined when it lies outside basePath. */
  private docPath(path: string): string | undefined {
    if (!this.basePath) return path;
    return path.startsWith(`${this.basePath}/`) ? path.slice(this.basePath.length) : undefined;
  }

  /** The operation object for a method and (request) path, or undefined when the document has none. */
  operation(method: string, path: string): Schema | undefined {
    const p = this.docPath(path);
    if (p === undefined) return undefined;
    const paths = (this.doc.paths ?? {}) as Schema;
    // An exact path first, else a templated one (`/subscriptions/{subscriptionId}`: one segment per parameter).
    let item = paths[p] as Schema | undefined;
    item ??= Object.entries(paths).find(([template]) => template.includes('{')
      && new RegExp(`^${template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+')}$`).test(p))?.[1] as Schema | undefined;
    return item?.[method.toLowerCase()] as Schema | undefined;
  }

  /** The statuses documented for an operation, as strings. */
  statuses(method: string, path: string): string[] {
    return Object.keys((this.operation(method, path)?.responses ?? {}) as Schema);
  }

  /** The response object documented for a status (exact, `4XX`, `default`), references followed. */
  response(method: string, path: string, status: number): Schema | undefined {
    const responses = (this.operation(method, path)?.responses ?? {}) as Schema;
    const raw = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
    return raw === undefined ? undefined : this.deref(raw as Schema);
  }

  /** Every problem with a response (status, content type, documented headers, body); empty when it conforms. */
  responseErrors(method: string, path: string, status: number, headers: HeaderSource, body: unknown): string[] {
    const op = this.operation(method, path);
    if (!op) return [`${method.toUpperCase()} ${path} is not in the document`];
    const response = this.response(method, path, status);
    if (response === undefined) return [`status ${status} is not documented (documented: ${this.statuses(method, path).join(', ')})`];
    return this.responseObjectErrors(response, headers, body);
  }

  /** Problems of a response against one response object (headers, content type, body). */
  responseObjectErrors(response: Schema, headers: HeaderSource, body: unknown): string[] {
    const errors: string[] = [];
    for (const [name, h] of Object.entries((response.headers ?? {}) as Schema)) {
      const header = this.deref(h as Schema);
      const value = headers.get(name);
      if (value === null) {
        if (header.required === true) errors.push(`header ${name} is required`);
      } else if (header.schema) {
        errors.push(...this.validate(header.schema as Schema, value, `header ${name}`));
      }
    }
    const content = response.content as Schema | undefined;
    if (!content) return errors;
    // application/json, else a JSON-based type such as RFC 9457's application/problem+json.
    const mediaType = content['application/json'] ? 'application/json' : Object.keys(content).find((k) => /^application\/[\w.-]+\+json$/.test(k));
    const media = mediaType === undefined ? undefined : content[mediaType] as Schema | undefined;
    if (!media || mediaType === undefined) {
      // A document that is not JSON (a sign-in step's HTML page): its content type only.
      const other = Object.keys(content);
      const type = (headers.get('content-type') ?? '').toLowerCase();
      if (other.length > 0 && other.some((k) => type.startsWith(k))) return errors;
      return [...errors, 'document has no application/json content for this response'];
    }
    const type = headers.get('content-type') ?? '';
    if (!type.toLowerCase().startsWith(mediaType) || /^[\w.+-]/.test(type.slice(mediaType.length))) errors.push(`content-type is "${type}", not ${mediaType}`);
    if (body === undefined) return [...errors, 'body: expected JSON, got nothing (no JSON body)'];
    errors.push(...this.validate(media.schema as Schema, body, 'body'));
    return errors;
  }

  /** Throws, naming every problem and the body, when a response does not conform. */
  assertResponse(method: string, path: string, status: number, headers: HeaderSource, body: unknown, text?: string): void {
    this.throwOn(this.responseErrors(method, path, status, headers, body), method, path, status, body, text);
  }

  throwOn(errors: string[], method: string, path: string, status: number, body: unknown, text?: string): void {
    if (errors.length === 0) return;
    const shown = (text ?? JSON.stringify(body) ?? String(body)).slice(0, 600);
    const title = (this.doc.info as Schema | undefined)?.title;
    throw new Error(`response does not match ${typeof title === 'string' ? title : 'the document'} for ${method.toUpperCase()} ${path} → ${status}:\n` +
      `${errors.map((e) => `  - ${e}`).join('\n')}\n  body: ${shown}`);
  }

  /** Every problem with a value against a schema of the document; `at` names the place. Throws on a schema ajv cannot compile. */
  validate(schema: Schema, value: unknown, at = ''): string[] {
    let fn = this.compiled.get(schema);
    if (!fn) {
      const root = { ...(toJsonSchema(schema, this.openapi30) as Schema), $defs: this.defs };
      fn = this.ajv.compile(root);
      this.compiled.set(schema, fn);
    }
    return fn(value) ? [] : formatErrors(fn.errors, at, value);
  }

  /** Follows a local $ref (#/a/b/c), failing loudly on a dangling one. */
  resolve(ref: string): Schema {
    if (!ref.startsWith('#/')) throw new Error(`openapi-validator: only local $ref is supported, got ${ref}`);
    let node: unknown = this.doc;
    for (const raw of ref.slice(2).split('/')) {
      const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      node = isObject(node) ? node[part] : undefined;
    }
    if (!isObject(node)) throw new Error(`openapi-validator: $ref ${ref} does not resolve`);
    return node as Schema;
  }

  private deref(node: Schema): Schema {
    let n = node;
    for (let i = 0; typeof n.$ref === 'string'; i++) {
      if (i > 20) throw new Error('openapi-validator: $ref cycle');
      n = this.resolve(n.$ref);
    }
    return n;
  }
}

let admin: OpenApiSpec | undefined;
/** docs/openapi-admin.yaml, parsed once per test file; paths under /admin/api/v1. */
export function adminApiSpec(): OpenApiSpec {
  admin ??= OpenApiSpec.load(join(__dirname, '..', '..', 'docs', 'openapi-admin.yaml'), '/admin/api/v1');
  return admin;
}

let shared: OpenApiSpec | undefined;
/** docs/openapi.yaml, parsed once per test file. */
export function partnerApiSpec(): OpenApiSpec {
  shared ??= OpenApiSpec.load();
  return shared;
}
