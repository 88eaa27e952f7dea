/** A JSON object: not null, not an array (a request body or a nested object in one). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The named own properties of an object, on an object without a prototype: a body's
 * `__proto__` or `constructor` is data, never inherited behaviour, and nothing inherited is read.
 */
export function ownFields(body: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const name of names) {
    if (Object.hasOwn(body, name)) out[name] = body[name];
  }
  return out;
}
