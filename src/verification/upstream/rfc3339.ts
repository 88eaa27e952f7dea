import { parseRfc3339 } from '../../kernel/rfc3339';

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
  const ms = parseRfc3339(value);
  if (ms === undefined) throw new Error(`unexpected ${field}`);
  return ms;
}
