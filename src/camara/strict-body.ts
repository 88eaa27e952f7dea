import { BadRequestError } from '../errors/domain-errors';
import { parseFullDate } from '../kernel/zoned-date';
import { OutOfRangeError } from './camara-errors';
import { PHONE_NUMBER } from './camara-input';

/*
 * Request bodies of the signal APIs (Device Swap, Call Forwarding Signal, Number Recycling).
 * Unlike SIM Swap's, an unknown field is refused (400 INVALID_ARGUMENT, naming it): the specs
 * do not forbid additional properties, but a misspelt `maxage` silently ignored would answer
 * for the default window, not the one the caller meant (docs/decisions.md).
 */

/** The body as an object holding only the named fields; any other field is a 400 naming it. */
export function strictObject(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequestError('the request body must be a JSON object');
  const unknown = Object.keys(body).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    // The names only, cut short: a field name is caller text, and could be anything.
    const shown = unknown.slice(0, 3).map((k) => JSON.stringify(k.slice(0, 40))).join(', ');
    throw new BadRequestError(`unknown field${unknown.length > 1 ? 's' : ''} ${shown}; this operation takes ${allowed.join(', ')}`);
  }
  return body as Record<string, unknown>;
}

/** Own properties only: `__proto__` or `constructor` in a body is data, never inherited behaviour. */
export function field(body: Record<string, unknown>, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(body, name) ? body[name] : undefined;
}

/** The optional phoneNumber: E.164 with a leading + (CONTRACT §7), else 400 INVALID_ARGUMENT. */
export function optionalPhoneNumber(body: Record<string, unknown>): string | undefined {
  const value = field(body, 'phoneNumber');
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !PHONE_NUMBER.test(value)) {
    throw new BadRequestError('phoneNumber must be an E.164 number with a leading + (^\\+[1-9][0-9]{4,14}$)');
  }
  return value;
}

/** An optional integer in [min, max]: a wrong type is INVALID_ARGUMENT, an integer outside the range OUT_OF_RANGE. */
export function optionalIntegerInRange(body: Record<string, unknown>, name: string, min: number, max: number, unit: string): number | undefined {
  const value = field(body, name);
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new BadRequestError(`${name} must be an integer number of ${unit}`);
  if (value < min || value > max) throw new OutOfRangeError(`${name} must be from ${min} to ${max} ${unit}`);
  return value;
}

/** A required RFC 3339 full-date naming a real day (YYYY-MM-DD); whether it is in the future is the caller's check. */
export function requiredFullDate(body: Record<string, unknown>, name: string): string {
  const value = field(body, name);
  if (value === undefined) throw new BadRequestError(`${name} is required`);
  if (typeof value !== 'string' || parseFullDate(value) === undefined) throw new BadRequestError(`${name} must be a date in the form YYYY-MM-DD`);
  return value;
}
