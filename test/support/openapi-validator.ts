import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';

/*
 * Validates REST responses against docs/openapi.yaml without a validator package: the JSON
 * Schema subset the document uses, no more. A keyword outside that subset throws, so the
 * document cannot grow a constraint that the tests silently skip.
 */



type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = { [k: string]: Json };

export const OPENAPI_FILE = join(__dirname, '..', '..', 'docs', 'openapi.yaml');

/** Keywords that describe without constraining. */
const ANNOTATIONS = new Set(['description', 'title', 'example', 'examples', 'default', 'deprecated', 'summary', 'format']);
const CONSTRAINTS = new Set([
  '$ref', 'type', 'const', 'enum', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum',
  'properties', 'required', 'additionalProperties', 'items', 'oneOf', 'anyOf', 'allOf',
]);

export interface HeaderSource {
  get(name: string): string | null;
}

export class OpenApiSpec {
  private readonly patterns = new Map<string, RegExp>();

  constructor(readonly doc: { [k: string]: Json }) {}

  static load(file = OPENAPI_FILE): OpenApiSpec {
    return OpenApiSpec.parse(readFileSync(file, 'utf8'));
  }

  static parse(text: string): OpenApiSpec {
    const doc = yaml.load(text, { schema: yaml.CORE_SCHEMA });
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error('OpenAPI document is not a mapping');
    return new OpenApiSpec(doc as { [k: string]: Json });
  }

  /** The operation object for a method and path, or undefined when the document has none. */
  operation(method: string, path: string): Schema | undefined {
    const item = (this.doc.paths as Schema | undefined)?.[path] as Schema | undefined;
    return item?.[method.toLowerCase()] as Schema | undefined;
  }

  /** The statuses documented for an operation, as strings. */
  statuses(method: string, path: string): string[] {
    return Object.keys((this.operation(method, path)?.responses ?? {}) as Schema);
  }

  /** Every problem with a response (status, content type, required headers, body); empty when it conforms. */
  responseErrors(method: string, path: string, status: number, headers: HeaderSource, body: unknown): string[] {
    const op = this.operation(method, path);
    if (!op) return [`${method.toUpperCase()} ${path} is not in the document`];
    const responses = op.responses as Schema;
    const raw = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
    if (raw === undefined) return [`status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
    const response = this.deref(raw as Schema);
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
    const media = content['application/json'] as Schema | undefined;
    if (!media) return [...errors, 'document has no application/json content for this response'];
    const type = headers.get('content-type') ?? '';
    if (!/^application\/json\b/.test(type)) errors.push(`content-type is "${type}", not application/json`);
    errors.push(...this.validate(media.schema as Schema, body, 'body'));
    return errors;
  }

  /** Throws, naming every problem and the body, when a response does not conform. */
  assertResponse(method: string, path: string, status: number, headers: HeaderSource, body: unknown, text?: string): void {
    const errors = this.responseErrors(method, path, status, headers, body);
    if (errors.length === 0) return;
    const shown = (text ?? JSON.stringify(body) ?? String(body)).slice(0, 600);
    throw new Error(`response does not match docs/openapi.yaml for ${method.toUpperCase()} ${path} → ${status}:\n` +
      `${errors.map((e) => `  - ${e}`).join('\n')}\n  body: ${shown}`);
  }

  /** Every problem with a value against a schema of the supported subset; `at` names the place. */
  validate(schema: Schema, value: unknown, at = ''): string[] {
    for (const k of Object.keys(schema)) {
      if (!CONSTRAINTS.has(k) && !ANNOTATIONS.has(k)) throw new Error(`openapi-validator: unsupported keyword "${k}" at ${at}`);
    }
    if (typeof schema.$ref === 'string') {
      // Like 2020-12, siblings of $ref apply too; the document uses none but annotations.
      return this.validate(this.resolve(schema.$ref), value, at);
    }
    const errors: string[] = [];
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (!types.every((t) => typeof t === 'string')) throw new Error(`openapi-validator: a type that is not a name at ${at}`);
      if (!types.some((t) => hasType(value, t))) return [`${at}: expected ${types.join(' or ')}, got ${describe(value)}`];
    }
    if ('const' in schema && !sameJson(value, schema.const)) errors.push(`${at}: must be ${JSON.stringify(schema.const)}, got ${describe(value)}`);
    if (Array.isArray(schema.enum) && !schema.enum.some((e) => sameJson(value, e))) {
      errors.push(`${at}: must be one of ${JSON.stringify(schema.enum)}, got ${describe(value)}`);
    }
    if (typeof value === 'string') {
      const length = [...value].length;
      if (typeof schema.minLength === 'number' && length < schema.minLength) errors.push(`${at}: shorter than ${schema.minLength}`);
      if (typeof schema.maxLength === 'number' && length > schema.maxLength) errors.push(`${at}: longer than ${schema.maxLength}`);
      if (typeof schema.pattern === 'string' && !this.regex(schema.pattern).test(value)) {
        errors.push(`${at}: ${JSON.stringify(value.slice(0, 80))} does not match ${schema.pattern}`);
      }
    }
    if (typeof value === 'number') {
      if (typeof schema.minimum === 'number' && value < schema.minimum) errors.push(`${at}: below ${schema.minimum}`);
      if (typeof schema.maximum === 'number' && value > schema.maximum) errors.push(`${at}: above ${schema.maximum}`);
    }
    if (isObject(value)) errors.push(...this.validateObject(schema, value, at));
    if (Array.isArray(value) && schema.items !== undefined) {
      value.forEach((v, i) => errors.push(...this.validate(schema.items as Schema, v, `${at}/${i}`)));
    }
    if (Array.isArray(schema.allOf)) for (const s of schema.allOf) errors.push(...this.validate(s as Schema, value, at));
    if (Array.isArray(schema.anyOf)) {
      const results = schema.anyOf.map((s) => this.validate(s as Schema, value, at));
      if (!results.some((r) => r.length === 0)) errors.push(`${at}: matches none of anyOf (${results.map((r) => r[0]).join('; ')})`);
    }
    if (Array.isArray(schema.oneOf)) {
      const results = schema.oneOf.map((s) => this.validate(s as Schema, value, at));
      const matching = results.filter((r) => r.length === 0).length;
      if (matching === 0) errors.push(`${at}: matches none of oneOf (${results.map((r) => r[0]).join('; ')})`);
      if (matching > 1) errors.push(`${at}: matches ${matching} of oneOf, exactly one allowed`);
    }
    return errors;
  }

  private validateObject(schema: Schema, value: Record<string, unknown>, at: string): string[] {
    const errors: string[] = [];
    const properties = (schema.properties ?? {}) as Schema;
    if (Array.isArray(schema.required)) {
      for (const name of schema.required) {
        if (typeof name !== 'string') throw new Error(`openapi-validator: a required name that is not a string at ${at}`);
        if (!Object.prototype.hasOwnProperty.call(value, name)) errors.push(`${at}: missing required property "${name}"`);
      }
    }
    for (const [name, v] of Object.entries(value)) {
      if (Object.prototype.hasOwnProperty.call(properties, name)) {
        errors.push(...this.validate(properties[name] as Schema, v, `${at}/${name}`));
      } else if (schema.additionalProperties === false) {
        errors.push(`${at}: unexpected property "${name}"`);
      } else if (isObject(schema.additionalProperties)) {
        errors.push(...this.validate(schema.additionalProperties, v, `${at}/${name}`));
      }
    }
    return errors;
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

  private regex(pattern: string): RegExp {
    let r = this.patterns.get(pattern);
    if (!r) {
      r = new RegExp(pattern, 'u');
      this.patterns.set(pattern, r);
    }
    return r;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object': return isObject(value);
    case 'array': return Array.isArray(value);
    case 'string': return typeof value === 'string';
    case 'boolean': return typeof value === 'boolean';
    case 'null': return value === null;
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'integer': return typeof value === 'number' && Number.isInteger(value);
    default: throw new Error(`openapi-validator: unknown type "${type}"`);
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing (no JSON body)';
  const s = JSON.stringify(value);
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}

let shared: OpenApiSpec | undefined;
/** docs/openapi.yaml, parsed once per test file. */
export function partnerApiSpec(): OpenApiSpec {
  shared ??= OpenApiSpec.load();
  return shared;
}
