const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * An optional upstream date-time field (CONTRACT §3, §7): absent or null is "unknown" (null),
 * an RFC 3339 string is its instant in ms; anything else is an upstream fault.
 */
export function optionalInstant(value: unknown, field: string): number | null {
  if (value === undefined || value === null) return null;
  return requiredInstant(value, field);
}

/** An RFC 3339 date-time in ms since the epoch; throws naming the field otherwise. */
export function requiredInstant(value: unknown, field: string): number {
  if (typeof value !== 'string' || !RFC3339.test(value)) throw new Error(`unexpected ${field}`);
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new Error(`unexpected ${field}`);
  return ms;
}
